/**
 * The sandbox ad platform's own schema and migrations (lib/platforms/sandbox/migrations), and the upgrade
 * of a database whose sandbox tables were still the app's (public.sandbox_*, made by the app's migrations
 * before 20261126052916_sandbox_leaves_app_schema): every row survives, read back through the sandbox's
 * adapter and operator surface. This file plants the old tables by name on purpose: that is the state
 * being upgraded (the fence test allows it here only).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { applyMigrations, MIGRATIONS_DIR } from "@/lib/db/migrate";
import { emptyDatabaseFactory } from "../helpers/empty-cluster";
import { freshPostgresDatabase } from "../helpers/fresh-database";

const HANDOVER = "20261126052916_sandbox_leaves_app_schema";
const SLOW = 180_000;
// `npm test` runs this file once per database (TEST_DB): PGlite in the unit project, PostgreSQL in the postgres one.
const onPostgres = process.env.TEST_DB === "postgres";

/** Yesterday's database: the old migrations applied, then `sql` run; answers the DATABASE_URL (PostgreSQL) or nothing (PGlite in dataDir/db). */
async function oldDatabase(dataDir: string, migrationsDir: string, sql: string): Promise<string | undefined> {
  if (onPostgres) {
    const url = await freshPostgresDatabase("sandbox_upgrade");
    await applyMigrations(url, { migrationsDir });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
    return url;
  }
  // An empty cluster from a dump (tests/helpers/empty-cluster.ts): initdb is not under test here.
  const old = (await emptyDatabaseFactory())(path.join(dataDir, "db"));
  try {
    await applyMigrations(old, { migrationsDir });
    await old.exec(sql);
  } finally {
    await old.close();
  }
  return undefined;
}

/** The app's migrations before the sandbox had its own: what an installation upgraded today last applied. */
function migrationsBeforeHandover(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-migrations-old-"));
  for (const entry of fs.readdirSync(MIGRATIONS_DIR, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name >= HANDOVER) continue;
    fs.cpSync(path.join(MIGRATIONS_DIR, entry.name), path.join(dir, entry.name), { recursive: true });
  }
  return dir;
}

const dirs: string[] = [];
afterAll(async () => {
  const { disposeServices } = await import("@/lib/services");
  await disposeServices();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the sandbox's own schema", () => {
  it(
    "an upgrade moves the app's old sandbox tables into the schema 'sandbox' with every row; the sandbox's migration adopts them",
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-sandbox-upgrade-"));
      const oldMigrations = migrationsBeforeHandover();
      dirs.push(dataDir, oldMigrations);

      // Yesterday's installation: the sandbox's tables in the app's schema, holding an account with an
      // advanced clock, a campaign, an ad, a comment with a reply and a chunked upload session.
      const acct = "act_100000000000001";
      const deliveredThrough = "2026-11-20T10:00:00.000Z";
      const databaseUrl = await oldDatabase(
        dataDir,
        oldMigrations,
        `
        INSERT INTO workspaces (id, name) VALUES ('ws_upgrade', 'Upgrade');
        INSERT INTO ad_accounts (id, "workspaceId", platform, mode, "externalAccountId", "defaultFor", "updatedAt")
          VALUES ('adacct_upgrade', 'ws_upgrade', 'platform_a', 'sandbox', '${acct}', 'platform_a', now());
        INSERT INTO sandbox_accounts ("externalAccountId", "workspaceId", platform, currency, "timeZone", "offsetSeconds", "deliveredThrough")
          VALUES ('${acct}', 'ws_upgrade', 'platform_a', 'USD', 'Europe/Paris', 7200, '${deliveredThrough}');
        INSERT INTO sandbox_campaigns (id, "accountId", "clientRef", name, objective, status)
          VALUES ('111', '${acct}', 'ref-c', 'Kept campaign', 'OUTCOME_SALES', 'ACTIVE');
        INSERT INTO sandbox_ads (id, "accountId", "adSetId", "clientRef", name, status, "mediaId", "mediaKind", "callToAction", "landingUrl", quality, impressions, "spendMinor")
          VALUES ('333', '${acct}', '222', 'ref-a', 'Kept ad', 'PAUSED', 'abc', 'image', 'SHOP_NOW', 'https://example.com', 1.1, 5000, 1234);
        INSERT INTO sandbox_comments (id, "accountId", "adId", "authorName", message, "createdAt")
          VALUES ('444', '${acct}', '333', 'Ada', 'Kept comment', '2026-11-20T08:30:00.000Z');
        INSERT INTO sandbox_comments (id, "accountId", "adId", "authorName", message, "parentId", "byPage", "createdAt")
          VALUES ('445', '${acct}', '333', 'Page', 'Kept reply', '444', true, '2026-11-20T08:40:00.000Z');
        INSERT INTO sandbox_media_sessions (id, "workspaceId", "accountExternalId", platform, "fileName", kind, "fileSize", "receivedBytes", "chunksAccepted", "externalId")
          VALUES ('sbxup_kept', 'ws_upgrade', '${acct}', 'platform_a', 'big.mp4', 'video', 100, 40, 1, '555');
      `,
      );
      const env = { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) } as unknown as NodeJS.ProcessEnv;

      // Today's start: the app's migrations, then the sandbox's own (what lib/server/prepare-database.ts runs).
      const { createServices, disposeServices } = await import("@/lib/services");
      const { parseConfig } = await import("@/lib/config");
      await disposeServices();
      createServices(parseConfig(env));
      const { ensureMigrated } = await import("@/lib/db/migrate-configured");
      const { ensureSandboxSchema } = await import("@/lib/platforms/sandbox");
      expect(await ensureMigrated()).toContain(HANDOVER);
      expect(await ensureSandboxSchema()).toEqual(["0001_own_schema", "0002_accounts_per_platform"]);

      const { getDb } = await import("@/lib/db/client");
      const tables = await getDb().$queryRawUnsafe<{ schema: string; name: string }[]>(
        `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables WHERE table_name LIKE '%sandbox%' OR table_schema = 'sandbox' ORDER BY 1, 2`,
      );
      expect(tables.filter((t) => t.schema === "public")).toEqual([]);
      expect(tables.map((t) => t.name).sort()).toEqual([
        "accounts",
        "ad_days",
        "ad_sets",
        "ads",
        "campaigns",
        "comments",
        "leads",
        "media_sessions",
        "migrations",
      ]);

      // Read back through the sandbox itself: the account's clock and zone, its objects, comments, upload sessions.
      const { adapterFor, getAdAccount } = await import("@/lib/platforms");
      const { sandboxCampaigns, sandboxClock, sandboxCommentsOf, sandboxMediaSessionsOf } = await import("@/lib/platforms/sandbox/operator");
      const account = (await getAdAccount("ws_upgrade", "platform_a"))!;
      expect(account.externalAccountId).toBe(acct);
      const clock = await sandboxClock(account);
      expect(clock.timeZone).toBe("Europe/Paris");
      expect(clock.simulatedNow.getTime() - Date.now()).toBeGreaterThan(7100 * 1000); // the advanced offset is kept
      expect(await sandboxCampaigns(account)).toEqual([
        { externalId: "111", clientRef: "ref-c", name: "Kept campaign", objective: "OUTCOME_SALES", status: "ACTIVE" },
      ]);
      const { comments } = await sandboxCommentsOf("ws_upgrade");
      expect(comments.map((c) => [c.externalId, c.message, c.parentExternalId])).toEqual([
        ["445", "Kept reply", "444"],
        ["444", "Kept comment", null],
      ]);
      expect((await sandboxMediaSessionsOf("ws_upgrade")).sessions).toEqual([
        expect.objectContaining({ sessionId: "sbxup_kept", receivedBytes: 40, chunksAccepted: 1, videoId: "555", finished: false }),
      ]);
      // The adapter serves the adopted account (getAccount delivers the hours since, on the kept tables).
      expect(await adapterFor(account).getAccount(account)).toMatchObject({ externalAccountId: acct, timeZone: "Europe/Paris", currency: "USD" });

      // Applied once: a second start (a new registry on the same database) applies nothing.
      await disposeServices();
      createServices(parseConfig(env));
      expect(await ensureMigrated()).toEqual([]);
      expect(await ensureSandboxSchema()).toEqual([]);
    },
    SLOW,
  );
});
