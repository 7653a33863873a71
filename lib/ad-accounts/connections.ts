import { getDb } from "@/lib/db/client";
import { AppError, conflict, notFound } from "@/lib/errors";
import type { AdAccount } from "@/lib/generated/prisma/client";
import type { Platform } from "@/lib/generated/prisma/enums";
import { newId } from "@/lib/ids";
import { ensureDefaultAccounts, PlatformError, readLiveAccount, reconnectHint, sealAccountCredentials } from "@/lib/platforms";

/**
 * A workspace's ad account connections: any number per platform, one default per platform (what
 * uploads and the ads tools use). Sandbox accounts are the embedded default; live accounts are
 * connected with a token the platform accepts, stored sealed (lib/credentials), never shown again.
 */

export interface AdAccountConnection {
  id: string;
  platform: Platform;
  externalAccountId: string;
  mode: "sandbox" | "live";
  /** True for the sandbox platform's accounts: simulated delivery, no real money. */
  sandbox: boolean;
  status: "active" | "needs_reconnect" | "disconnected";
  /** Why the account left active, and how to reconnect it (null while active). */
  statusReason: string | null;
  reconnectHint: string | null;
  isDefault: boolean;
  name: string;
  currency: string | null;
  timeZone: string | null;
  pageId: string | null;
  identityId: string | null;
  connectedAt: string | null;
  createdAt: string;
}

const SANDBOX_NAMES: Record<Platform, string> = { platform_a: "Sandbox ad account A", platform_b: "Sandbox advertiser B" };
const SANDBOX_SETTINGS: Record<Platform, { currency: string; timeZone: string }> = {
  platform_a: { currency: "USD", timeZone: "America/New_York" },
  platform_b: { currency: "USD", timeZone: "UTC" },
};

export function toConnection(row: AdAccount): AdAccountConnection {
  const sandbox = row.mode === "sandbox";
  return {
    id: row.id,
    platform: row.platform,
    externalAccountId: row.externalAccountId,
    mode: row.mode,
    sandbox,
    status: row.status,
    statusReason: row.status === "active" ? null : (row.statusReason ?? (row.status === "disconnected" ? "Disconnected by the workspace" : null)),
    reconnectHint: row.status === "active" || sandbox ? null : reconnectHint(row),
    isDefault: row.defaultFor !== null,
    name: row.name ?? (sandbox ? SANDBOX_NAMES[row.platform] : row.externalAccountId),
    currency: row.currency ?? (sandbox ? SANDBOX_SETTINGS[row.platform].currency : null),
    timeZone: row.timeZone ?? (sandbox ? SANDBOX_SETTINGS[row.platform].timeZone : null),
    pageId: row.pageId,
    identityId: row.identityId,
    connectedAt: row.connectedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Every ad account connection of the workspace (sandbox ones made first in sandbox mode), per platform, the default first. */
export async function listConnections(workspaceId: string): Promise<AdAccountConnection[]> {
  await ensureDefaultAccounts(workspaceId);
  const rows = await getDb().adAccount.findMany({ where: { workspaceId }, orderBy: [{ platform: "asc" }, { createdAt: "asc" }, { id: "asc" }] });
  return rows.sort((a, b) => (a.platform === b.platform ? Number(b.defaultFor !== null) - Number(a.defaultFor !== null) : 0)).map(toConnection);
}

const EXTERNAL_ID: Record<Platform, { pattern: RegExp; example: string }> = {
  platform_a: { pattern: /^act_\d{1,30}$/, example: "act_<digits>, e.g. act_1234567890" },
  platform_b: { pattern: /^\d{1,30}$/, example: "the advertiser id (digits), e.g. 7123456789012345678" },
};

export interface ConnectInput {
  workspaceId: string;
  platform: Platform;
  externalAccountId: string;
  accessToken: string;
  pageId?: string;
  identityId?: string;
  /** Make it the platform's default; otherwise it becomes the default only in place of a sandbox or unusable one. */
  makeDefault?: boolean;
}

/**
 * Connects (or reconnects) a live ad account: reads it from the platform with the token first, so
 * only an account the token really reaches is stored, with the platform's name, currency and time
 * zone. A refused token stores nothing and answers not_connected.
 */
export async function connectAdAccount(input: ConnectInput): Promise<AdAccountConnection> {
  const format = EXTERNAL_ID[input.platform];
  if (!format.pattern.test(input.externalAccountId)) {
    throw new AppError("invalid_input", `${input.platform} account ids look like ${format.example}; got "${input.externalAccountId}"`);
  }
  if (!input.accessToken.trim()) throw new AppError("invalid_input", "The access token is empty");
  let readout;
  try {
    readout = await readLiveAccount(input.platform, input.externalAccountId, input.accessToken);
  } catch (err) {
    if (err instanceof PlatformError && err.authRefused) {
      throw new AppError("not_connected", `${err.message}. Nothing was stored: connect again with a token that may read ${input.externalAccountId}`);
    }
    throw err;
  }
  const db = getDb();
  const key = {
    workspaceId_platform_externalAccountId: { workspaceId: input.workspaceId, platform: input.platform, externalAccountId: input.externalAccountId },
  };
  const existing = await db.adAccount.findUnique({ where: key });
  if (existing?.mode === "sandbox") throw conflict(`${input.externalAccountId} is this workspace's sandbox account; live accounts have their own ids`);
  const id = existing?.id ?? newId("adacct");
  const fields = {
    mode: "live" as const,
    status: "active" as const,
    statusReason: null,
    name: readout.name,
    currency: readout.currency,
    timeZone: readout.timeZone,
    pageId: input.pageId ?? existing?.pageId ?? null,
    identityId: input.identityId ?? existing?.identityId ?? null,
    credentialsCiphertext: sealAccountCredentials(id, { accessToken: input.accessToken }),
    connectedAt: new Date(),
  };
  await db.adAccount.upsert({
    where: key,
    create: { id, workspaceId: input.workspaceId, platform: input.platform, externalAccountId: input.externalAccountId, ...fields },
    update: fields,
  });
  const current = await db.adAccount.findUnique({ where: { workspaceId_defaultFor: { workspaceId: input.workspaceId, defaultFor: input.platform } } });
  if (input.makeDefault || !current || current.mode === "sandbox" || current.status !== "active") await makeDefault(input.workspaceId, input.platform, id);
  return toConnection(await db.adAccount.findUniqueOrThrow({ where: { id } }));
}

/**
 * Makes the (active) account its platform's default. Changes of a workspace's default are ordered by
 * the workspace's row lock: two at once (two Set default clicks, two connects) otherwise each cleared
 * the old default and set its own, and the unique (workspace, defaultFor) index refused the second
 * with a 500 on PostgreSQL. The last one wins; an account disconnected meanwhile answers conflict.
 */
async function makeDefault(workspaceId: string, platform: Platform, id: string): Promise<void> {
  await getDb().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM workspaces WHERE id = ${workspaceId} FOR UPDATE`;
    await tx.adAccount.updateMany({ where: { workspaceId, defaultFor: platform, NOT: { id } }, data: { defaultFor: null } });
    const { count } = await tx.adAccount.updateMany({ where: { id, status: "active" }, data: { defaultFor: platform } });
    if (count !== 1) throw conflict("The ad account is no longer active; reconnect it before making it the default");
  });
}

async function ownAccount(workspaceId: string | null, id: string): Promise<AdAccount> {
  const row = await getDb().adAccount.findUnique({ where: { id } });
  // Another workspace's account is answered exactly like a missing one.
  if (!row || (workspaceId !== null && row.workspaceId !== workspaceId)) throw notFound("Ad account");
  return row;
}

/** Makes an active account its platform's default (uploads and new ads go there). */
export async function setDefaultAdAccount(workspaceId: string, id: string): Promise<AdAccountConnection> {
  const row = await ownAccount(workspaceId, id);
  if (row.status !== "active") throw conflict(`Ad account ${row.externalAccountId} is ${row.status}; reconnect it before making it the default`);
  await makeDefault(workspaceId, row.platform, row.id);
  return toConnection(await getDb().adAccount.findUniqueOrThrow({ where: { id } }));
}

/**
 * Disconnects a live account: its token is deleted and calls on it answer not_connected. If it
 * was the default, the platform's next active account takes over (a live one first, else the
 * sandbox account). Sandbox accounts cannot be disconnected; connecting a live one replaces them as default.
 * `workspaceId` null: the operator, who may name any workspace's account.
 */
export async function disconnectAdAccount(workspaceId: string | null, id: string): Promise<{ ok: true; account: AdAccountConnection }> {
  const db = getDb();
  const row = await ownAccount(workspaceId, id);
  if (row.mode === "sandbox") throw conflict("Sandbox accounts cannot be disconnected; connect a live account and make it the default instead");
  await db.adAccount.update({ where: { id }, data: { status: "disconnected", statusReason: null, credentialsCiphertext: null, defaultFor: null } });
  if (row.defaultFor) {
    const next = await db.adAccount.findFirst({
      where: { workspaceId: row.workspaceId, platform: row.platform, status: "active", NOT: { id } },
      orderBy: [{ mode: "desc" }, { connectedAt: "desc" }, { createdAt: "asc" }],
    });
    if (next) await makeDefault(row.workspaceId, row.platform, next.id).catch(() => undefined);
  }
  return { ok: true, account: toConnection(await db.adAccount.findUniqueOrThrow({ where: { id } })) };
}

export interface ConnectOutcome {
  connected: AdAccountConnection[];
  failed: { externalAccountId: string; message: string }[];
}

/**
 * Connects the chosen accounts with one token (each read with it first, as connectAdAccount does),
 * all publishing as `pageId` when given. One unreadable account does not stop the others.
 */
export async function connectChosenAccounts(
  workspaceId: string,
  platform: Platform,
  accessToken: string,
  accountIds: string[],
  pageId?: string,
): Promise<ConnectOutcome> {
  const connected: AdAccountConnection[] = [];
  const failed: { externalAccountId: string; message: string }[] = [];
  for (const externalAccountId of accountIds.slice(0, 50)) {
    try {
      connected.push(await connectAdAccount({ workspaceId, platform, externalAccountId, accessToken, ...(pageId ? { pageId } : {}) }));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      failed.push({ externalAccountId, message: err.message });
    }
  }
  return { connected, failed };
}
