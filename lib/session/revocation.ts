import { getDb, queryRows } from "@/lib/db/client";
import { recordSecurityEvent } from "./security-events";

/**
 * Revocable dashboard sessions. Sessions are stateless JWTs (Auth.js); each carries the user's
 * session version from when it was issued, and the jwt callback (auth.ts) compares it with the
 * current one on every request. Raising the version ends every session the user has, on its next
 * request: "sign out everywhere", a password reset, a removed membership.
 */
export async function currentSessionVersion(userId: string): Promise<number | null> {
  const rows = await queryRows<{ v: number }>(`SELECT "sessionVersion" AS v FROM users WHERE id = $1`, [userId]);
  return rows[0] ? Number(rows[0].v) : null;
}

/** Whether a decoded session token (`uid`, `sv`) is still current: its user exists and has not revoked it since. */
export async function sessionIsCurrent(token: Record<string, unknown>): Promise<boolean> {
  if (typeof token.uid !== "string") return false;
  const current = await currentSessionVersion(token.uid);
  return current !== null && current === (typeof token.sv === "number" ? token.sv : 0);
}

/** "Sign out everywhere": ends every session of the user, recorded as a security event. */
export async function revokeSessions(userId: string): Promise<void> {
  await getDb().$transaction(async (tx) => {
    await revokeSessionsQuery(userId, tx);
    await recordSecurityEvent(tx, { userId, kind: "sessions_ended" });
  });
}

type UserClient = Pick<ReturnType<typeof getDb>, "user">;

/** The revocation as a query; pass the transaction's client to commit it with the change that calls for it. */
export function revokeSessionsQuery(userId: string, db: UserClient = getDb()) {
  return db.user.updateMany({ where: { id: userId }, data: { sessionVersion: { increment: 1 } } });
}
