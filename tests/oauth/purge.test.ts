import { describe, expect, it } from "vitest";
import { useFreshDatabase } from "../helpers/in-process-db";

await useFreshDatabase("oauth_purge");
const { getDb } = await import("@/lib/db/client");
const { purgeExpiredOAuthRecords } = await import("@/lib/oauth/purge");
const { createWorkspace } = await import("@/lib/workspaces/workspaces");
const { purgeOldSecurityEvents, purgeSpentAccountLinks } = await import("@/lib/session/purge");

const DAY = 86_400_000;

describe("the daily OAuth purge", () => {
  it("deletes clients nobody connected within 30 days of registering, and keeps recent and connected ones", async () => {
    const db = getDb();
    const now = new Date();
    const old = new Date(now.getTime() - 31 * DAY);
    const client = (id: string, createdAt: Date) => db.oAuthClient.create({ data: { id, name: id, redirectUris: ["https://x.example/cb"], createdAt } });
    await client("oac_unused_old", old);
    await client("oac_unused_new", new Date(now.getTime() - 2 * DAY));
    await client("oac_connected_old", old);
    const { workspaceId, ownerUserId } = await createWorkspace({ name: "Purge", plan: "pro", ownerEmail: `purge-${Date.now()}@example.com` });
    await db.oAuthGrant.create({
      data: { id: "oag_kept", clientId: "oac_connected_old", userId: ownerUserId!, workspaceId, scopes: ["upload"], resource: "http://localhost/api/mcp" },
    });

    const purged = await purgeExpiredOAuthRecords(now);
    expect(purged.clients).toBe(1);
    const left = (await db.oAuthClient.findMany({ orderBy: { id: "asc" } })).map((c) => c.id);
    expect(left).toEqual(["oac_connected_old", "oac_unused_new"]);
  });
});

describe("the daily purge of spent account links", () => {
  it("deletes password reset and address confirmation links a week after use or expiry, in batches, and keeps the rest", async () => {
    const db = getDb();
    // A controlled clock: the purge is asked as of this instant, whatever the machine's time.
    const NOW = new Date("2031-06-15T03:17:00Z");
    const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);
    const { ownerUserId } = await createWorkspace({ name: "Links", plan: "pro", ownerEmail: `links-${Date.now()}@example.com` });
    const userId = ownerUserId!;
    const rows = {
      used_old: { usedAt: daysAgo(7.1), expiresAt: daysAgo(7.05) },
      expired_old: { usedAt: null, expiresAt: daysAgo(7.1) },
      used_recently: { usedAt: daysAgo(6.9), expiresAt: daysAgo(6.85) },
      expired_recently: { usedAt: null, expiresAt: daysAgo(6.9) },
      // used long ago, though its expiry is still ahead (a confirmation link replaced by a newer one, say)
      used_old_unexpired: { usedAt: daysAgo(8), expiresAt: new Date(NOW.getTime() + 3_600_000) },
      unused: { usedAt: null, expiresAt: new Date(NOW.getTime() + 3_600_000) },
    };
    for (const [name, dates] of Object.entries(rows)) {
      await db.passwordReset.create({ data: { id: `pwr_${name}`, userId, tokenHash: `pwr-hash-${name}`, ...dates } });
      await db.emailVerification.create({ data: { id: `emv_${name}`, userId, tokenHash: `emv-hash-${name}`, ...dates } });
    }
    // More spent links than one batch deletes: the purge goes on until none is left.
    await db.emailVerification.createMany({
      data: Array.from({ length: 1005 }, (_, i) => ({ id: `emv_bulk_${i}`, userId, tokenHash: `emv-bulk-${i}`, expiresAt: daysAgo(30) })),
    });

    expect(await purgeSpentAccountLinks(NOW)).toEqual({ passwordResets: 3, emailVerifications: 1008 });
    const kept = ["expired_recently", "unused", "used_recently"];
    expect((await db.passwordReset.findMany({ orderBy: { id: "asc" } })).map((r) => r.id)).toEqual(kept.map((k) => `pwr_${k}`));
    expect((await db.emailVerification.findMany({ orderBy: { id: "asc" } })).map((r) => r.id)).toEqual(kept.map((k) => `emv_${k}`));

    // A day later the recent ones are past the week too; the link that still works stays.
    expect(await purgeSpentAccountLinks(new Date(NOW.getTime() + DAY))).toEqual({ passwordResets: 2, emailVerifications: 2 });
    expect((await db.passwordReset.findMany()).map((r) => r.id)).toEqual(["pwr_unused"]);
    expect((await db.emailVerification.findMany()).map((r) => r.id)).toEqual(["emv_unused"]);
  });
});

describe("the daily purge of security activity", () => {
  it("deletes security events older than 90 days, in batches, and keeps the newer ones", async () => {
    const db = getDb();
    const NOW = new Date("2031-09-01T03:17:00Z");
    const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);
    const { ownerUserId } = await createWorkspace({ name: "Activity", plan: "pro", ownerEmail: `activity-${Date.now()}@example.com` });
    const event = (id: string, createdAt: Date) => ({ id, userId: ownerUserId!, kind: "signed_in", method: "password", actor: "user", createdAt });
    await db.securityEvent.createMany({ data: [event("sev_old", daysAgo(90.1)), event("sev_recent", daysAgo(89.9)), event("sev_new", daysAgo(1))] });
    // More old events than one batch deletes: the purge goes on until none is left.
    await db.securityEvent.createMany({ data: Array.from({ length: 1005 }, (_, i) => event(`sev_bulk_${i}`, daysAgo(120))) });

    expect(await purgeOldSecurityEvents(NOW)).toBe(1006);
    expect((await db.securityEvent.findMany({ orderBy: { id: "asc" } })).map((e) => e.id)).toEqual(["sev_new", "sev_recent"]);
    // A day later the 89.9-day-old one is past 90 days too.
    expect(await purgeOldSecurityEvents(new Date(NOW.getTime() + DAY))).toBe(1);
    expect((await db.securityEvent.findMany()).map((e) => e.id)).toEqual(["sev_new"]);
  });
});
