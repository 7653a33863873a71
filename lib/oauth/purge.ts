import { getDb } from "@/lib/db/client";

const DAY_MS = 86_400_000;

/**
 * Deletes what can no longer be used: codes and tokens a day past expiry, revoked connections
 * after 30 days (their tokens go with them), and registered clients that nobody connected within
 * 30 days of registering (anyone may register one). Run from the daily purge job.
 */
export async function purgeExpiredOAuthRecords(now = new Date()): Promise<{ codes: number; tokens: number; grants: number; clients: number }> {
  const db = getDb();
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const codes = await db.oAuthAuthorizationCode.deleteMany({ where: { expiresAt: { lt: dayAgo } } });
  const tokens = await db.oAuthToken.deleteMany({ where: { expiresAt: { lt: dayAgo } } });
  const grants = await db.oAuthGrant.deleteMany({ where: { revokedAt: { lt: new Date(now.getTime() - 30 * DAY_MS) } } });
  const monthAgo = new Date(now.getTime() - 30 * DAY_MS);
  const clients = await db.oAuthClient.deleteMany({ where: { createdAt: { lt: monthAgo }, grants: { none: {} }, codes: { none: {} } } });
  return { codes: codes.count, tokens: tokens.count, grants: grants.count, clients: clients.count };
}
