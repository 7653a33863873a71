import { open, type ResealCount, resealEach, seal, UnreadableCredentials } from "@/lib/credentials/sealed";
import { getDb } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import type { Platform } from "@/lib/generated/prisma/enums";
import { newId } from "@/lib/ids";
import { exchangeAuthorization } from "@/lib/platforms";
import { type ConnectOutcome, connectChosenAccounts } from "./connections";

/**
 * The choice step of a dashboard Connect: when the authorization reaches more than one ad account
 * (or, on platform_a, more than one Page), the token is held here, sealed, bound to the workspace
 * and the user, for PENDING_MINUTES; the marketer picks the accounts and the Page, and only those
 * are connected. With a single candidate of each the accounts connect at once, as before.
 */
export const PENDING_MINUTES = 15;
/** How long a pending choice is kept, in seconds (AD_ACCOUNT_CHOICE_SECONDS shortens it for tests). */
const pendingSeconds = () => Number(process.env.AD_ACCOUNT_CHOICE_SECONDS) || PENDING_MINUTES * 60;

export interface Candidate {
  id: string;
  name: string;
}

export interface PendingGrantView {
  id: string;
  platform: Platform;
  accounts: Candidate[];
  pages: Candidate[];
  expiresAt: string;
}

const context = (id: string) => `ad_account_pending_grant:${id}`;

export async function connectFromAuthorization(
  who: { workspaceId: string; userId: string },
  platform: Platform,
  options: { code: string; redirectUri: string },
): Promise<({ kind: "connected" } & ConnectOutcome) | { kind: "pending"; pendingId: string }> {
  const { accessToken, accounts, pages } = await exchangeAuthorization(platform, options);
  if (!accounts.length)
    throw new AppError("not_connected", `The ${platform} authorization reached no ad account; grant access to at least one and connect again`);
  if (accounts.length === 1 && pages.length <= 1) {
    return { kind: "connected", ...(await connectChosenAccounts(who.workspaceId, platform, accessToken, [accounts[0]!.id], pages[0]?.id)) };
  }
  const id = newId("adgrant");
  const db = getDb();
  await db.adAccountPendingGrant.deleteMany({ where: { expiresAt: { lt: new Date() } } });
  await db.adAccountPendingGrant.create({
    data: {
      id,
      workspaceId: who.workspaceId,
      userId: who.userId,
      platform,
      credentialsCiphertext: seal(accessToken, context(id)),
      accounts: accounts.slice(0, 200) as object[],
      pages: pages.slice(0, 200) as object[],
      expiresAt: new Date(Date.now() + pendingSeconds() * 1000),
    },
  });
  return { kind: "pending", pendingId: id };
}

async function ownPending(who: { workspaceId: string; userId: string }, id: string) {
  const row = await getDb().adAccountPendingGrant.findUnique({ where: { id } });
  // Another workspace's (or user's) pending grant is answered exactly like a missing one.
  if (!row || row.workspaceId !== who.workspaceId || row.userId !== who.userId) throw notFound("Pending ad account authorization");
  if (row.expiresAt.getTime() <= Date.now()) {
    await getDb().adAccountPendingGrant.deleteMany({ where: { id } });
    throw new AppError(
      "conflict",
      `This ${row.platform} authorization expired (it is kept ${PENDING_MINUTES} minutes); nothing was connected. Click Connect again.`,
    );
  }
  return row;
}

export async function getPendingGrant(who: { workspaceId: string; userId: string }, id: string): Promise<PendingGrantView> {
  const row = await ownPending(who, id);
  return {
    id: row.id,
    platform: row.platform,
    accounts: row.accounts as unknown as Candidate[],
    pages: row.pages as unknown as Candidate[],
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** Connects the picked accounts (and, on platform_a, the picked Page); the held token is deleted either way. */
export async function completePendingGrant(
  who: { workspaceId: string; userId: string },
  id: string,
  choice: { accountIds: string[]; pageId?: string | null },
): Promise<ConnectOutcome> {
  const row = await ownPending(who, id);
  const accounts = row.accounts as unknown as Candidate[];
  const pages = row.pages as unknown as Candidate[];
  const picked = [...new Set(choice.accountIds)];
  if (!picked.length) throw new AppError("invalid_input", "Pick at least one ad account to connect");
  const unknown = picked.filter((a) => !accounts.some((c) => c.id === a));
  if (unknown.length) throw new AppError("invalid_input", `Not among this authorization's ad accounts: ${unknown.join(", ")}`);
  let pageId: string | undefined;
  if (pages.length) {
    if (!choice.pageId) throw new AppError("invalid_input", "Pick the Page the ads are published as");
    if (!pages.some((p) => p.id === choice.pageId)) throw new AppError("invalid_input", `Not among this authorization's Pages: ${choice.pageId}`);
    pageId = choice.pageId;
  }
  // Claim the grant first, so a double submit cannot connect twice.
  const claimed = await getDb().adAccountPendingGrant.deleteMany({ where: { id } });
  if (claimed.count !== 1) throw notFound("Pending ad account authorization");
  let accessToken: string;
  try {
    accessToken = open(row.credentialsCiphertext, context(id)).plaintext;
  } catch (err) {
    if (!(err instanceof UnreadableCredentials)) throw err;
    // Held across a CREDENTIALS_KEY rotation whose previous key is already gone: the token cannot be read back.
    throw new AppError(
      "conflict",
      `This ${row.platform} authorization can no longer be read (the server's credentials key changed); nothing was connected. Click Connect again.`,
    );
  }
  return connectChosenAccounts(row.workspaceId, row.platform, accessToken, picked, pageId);
}

/**
 * Seals every held choice still sealed by an earlier CREDENTIALS_KEY with the current one (part of
 * `admin credentials reseal`), so a marketer picking accounts after the old key is dropped still connects.
 */
export async function resealPendingGrants(): Promise<ResealCount> {
  const db = getDb();
  const rows = await db.adAccountPendingGrant.findMany({ where: { expiresAt: { gt: new Date() } }, select: { id: true, credentialsCiphertext: true } });
  return resealEach(
    rows.map((r) => ({ id: r.id, sealed: r.credentialsCiphertext })),
    context,
    async (id, from, to) =>
      (await db.adAccountPendingGrant.updateMany({ where: { id, credentialsCiphertext: from }, data: { credentialsCiphertext: to } })).count,
  );
}
