import { randomInt } from "node:crypto";
import { getDb } from "@/lib/db/client";
import type { AdAccount } from "@/lib/generated/prisma/client";
import type { Platform } from "@/lib/generated/prisma/enums";
import { newId } from "@/lib/ids";
import { getConfig } from "@/lib/services";
import type { AdAccountRef } from "./types";

export const PLATFORMS: readonly Platform[] = ["platform_a", "platform_b"];

function sandboxExternalId(platform: Platform): string {
  let digits = String(randomInt(1, 10));
  while (digits.length < 15) digits += String(randomInt(0, 10));
  return platform === "platform_a" ? `act_${digits}` : digits;
}

/**
 * The workspace's default ad account on `platform`, or null when none is usable. In sandbox mode
 * every workspace has a sandbox account per platform from the start: it is created (or made the
 * default again, after a live default was disconnected) on first use, safe under concurrency.
 * With PLATFORMS_MODE=live no sandbox account stands in for a live one.
 */
export async function getAdAccount(workspaceId: string, platform: Platform): Promise<AdAccountRef | null> {
  const db = getDb();
  const mode = getConfig().platforms.mode;
  const current = await db.adAccount.findUnique({ where: { workspaceId_defaultFor: { workspaceId, defaultFor: platform } } });
  if (current) return mode === "live" && current.mode === "sandbox" ? null : current;
  if (mode !== "sandbox") return null;
  return ensureSandboxDefault(workspaceId, platform);
}

async function ensureSandboxDefault(workspaceId: string, platform: Platform): Promise<AdAccount> {
  const db = getDb();
  const sandbox = await db.adAccount.findFirst({ where: { workspaceId, platform, mode: "sandbox" }, orderBy: { createdAt: "asc" } });
  if (sandbox) {
    // Two callers at once: the unique (workspace, defaultFor) index lets one win; both then read the winner.
    await db.adAccount.updateMany({ where: { id: sandbox.id, defaultFor: null }, data: { defaultFor: platform } }).catch(() => undefined);
  } else {
    await db.adAccount.createMany({
      data: [{ id: newId("adacct"), workspaceId, platform, mode: "sandbox", externalAccountId: sandboxExternalId(platform), defaultFor: platform }],
      skipDuplicates: true,
    });
  }
  return db.adAccount.findUniqueOrThrow({ where: { workspaceId_defaultFor: { workspaceId, defaultFor: platform } } });
}

/**
 * The workspace's default account per platform (those there are), or null when there is no such
 * workspace: how a platform module (the sandbox's operator commands) learns a workspace's accounts
 * without reading the app's tables itself.
 */
export async function defaultAccountsOf(workspaceId: string): Promise<AdAccountRef[] | null> {
  const workspace = await getDb().workspace.findUnique({ where: { id: workspaceId }, select: { id: true } });
  if (!workspace) return null;
  const accounts: AdAccountRef[] = [];
  for (const platform of PLATFORMS) {
    const account = await getAdAccount(workspaceId, platform);
    if (account) accounts.push(account);
  }
  return accounts;
}

/** Makes sure a sandbox-mode workspace has its sandbox accounts (listing shows them from the start). */
export async function ensureDefaultAccounts(workspaceId: string): Promise<void> {
  if (getConfig().platforms.mode !== "sandbox") return;
  for (const platform of PLATFORMS) await getAdAccount(workspaceId, platform);
}

/**
 * Moves an account to `needs_reconnect` after the platform refused its credentials; the reason is
 * kept for the reconnect message. Only an `active` account moves (a disconnect stays a disconnect),
 * and, given `sealed` (the stored token the refused call used), only while that token is still the
 * stored one: a refusal of the old token arriving after a reconnect does not undo the reconnect.
 * Answers whether the account moved.
 */
export async function markNeedsReconnect(accountId: string, reason: string, sealed?: string): Promise<boolean> {
  const { count } = await getDb().adAccount.updateMany({
    where: { id: accountId, status: "active", ...(sealed ? { credentialsCiphertext: sealed } : {}) },
    data: { status: "needs_reconnect", statusReason: reason.slice(0, 500) },
  });
  return count === 1;
}

/** How to bring an account back: the dashboard page, or the operator command with a new token. */
export function reconnectHint(account: Pick<AdAccountRef, "workspaceId" | "platform" | "externalAccountId">): string {
  return (
    `Reconnect it on the dashboard's Settings > Ad accounts page (Connect ${account.platform}), or with a new token: ` +
    `npm run admin -- adaccount connect --workspace ${account.workspaceId} --platform ${account.platform} --account ${account.externalAccountId} --token ACCESS_TOKEN`
  );
}
