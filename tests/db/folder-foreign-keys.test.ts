/**
 * The migrations that give `folderId` a foreign key (uploads, creatives, import runs, watched folders; then review
 * links): an installation upgraded today may hold rows filed under a folder deleted while an upload into it was on
 * its way, and review links sharing a folder since deleted. The migrations move those rows to the library root, and
 * delete those links (they share nothing), before adding the keys (which would refuse them), keep every row of a
 * folder that exists, and from then on deleting a folder moves what is filed under it to the root (ON DELETE SET
 * NULL) and deletes the links that share it or one of its subfolders (ON DELETE CASCADE). And the migration that gives
 * each ad account its own rollup cursor: the platform's cursor, counted in its default account's days, carries over
 * to that account, so a workspace with one account per platform resumes where it did.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { applyMigrations, MIGRATIONS_DIR } from "@/lib/db/migrate";
import { emptyDatabaseFactory } from "../helpers/empty-cluster";
import { freshPostgresDatabase } from "../helpers/fresh-database";

const FOREIGN_KEYS = "20261129090043_folder_foreign_keys";
const REVIEW_LINK_KEY = "20261129115205_review_link_folder_foreign_key";
const ACCOUNT_CURSORS = "20261129173944_per_account_rollup_cursors";
const ACCOUNT_STATUS = "20261129183000_per_account_rollup_status";
const SLOW = 180_000;
// `npm test` runs this file once per database (TEST_DB): PGlite in the unit project, PostgreSQL in the postgres one.
const onPostgres = process.env.TEST_DB === "postgres";

interface Db {
  query<T>(sql: string): Promise<{ rows: T[] }>;
  /** Several statements at once. */
  exec(sql: string): Promise<unknown>;
  close(): Promise<void>;
}

/** An empty database of the run's kind: a PGlite in memory or a new PostgreSQL database; the target applyMigrations takes. */
async function emptyDatabase(): Promise<{ target: Parameters<typeof applyMigrations>[0]; db: Db }> {
  if (onPostgres) {
    const url = await freshPostgresDatabase("folder_fkeys");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return {
      target: url,
      db: { query: async <T>(sql: string) => ({ rows: (await client.query(sql)).rows as T[] }), exec: (sql) => client.query(sql), close: () => client.end() },
    };
  }
  const pglite = (await emptyDatabaseFactory())();
  return { target: pglite, db: { query: (sql) => pglite.query(sql), exec: (sql) => pglite.exec(sql), close: () => pglite.close() } };
}

/** The migrations before the foreign keys: what an installation upgraded today last applied. */
function migrationsBefore(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-migrations-old-"));
  for (const entry of fs.readdirSync(MIGRATIONS_DIR, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name >= name) continue;
    fs.cpSync(path.join(MIGRATIONS_DIR, entry.name), path.join(dir, entry.name), { recursive: true });
  }
  return dir;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const TABLES = ["uploads", "creatives", "import_runs", "watched_folders"] as const;

describe("folder foreign keys", () => {
  it(
    "the upgrade moves rows of deleted (or another workspace's) folders to the root and deletes their review links, keeps the rest; deleting a folder then does the same",
    async () => {
      const old = migrationsBefore(FOREIGN_KEYS);
      dirs.push(old);
      const { target, db } = await emptyDatabase();
      try {
        await applyMigrations(target, { migrationsDir: old });
        // Yesterday's rows: per table one in a folder that exists, one in a deleted folder, one in another workspace's folder, one at the root.
        const rows = (table: string, values: (id: string, folder: string | null) => string) =>
          [
            ["kept", "'fld_here'"],
            ["dangling", "'fld_deleted'"],
            ["foreign", "'fld_theirs'"],
            ["root", "NULL"],
          ]
            .map(([id, folder]) => values(`${table}_${id}`, folder!))
            .join(",");
        await db.exec(`
          INSERT INTO workspaces (id, name) VALUES ('ws_a', 'A'), ('ws_b', 'B');
          INSERT INTO folders (id, "workspaceId", name) VALUES ('fld_here', 'ws_a', 'Here'), ('fld_theirs', 'ws_b', 'Theirs');
          INSERT INTO folders (id, "workspaceId", name, "parentId") VALUES ('fld_sub', 'ws_a', 'Sub', 'fld_here');
          INSERT INTO uploads (id, "workspaceId", "folderId", "createdById", "fileName", kind, "contentType", "sizeBytes", "storageKey", platform, "updatedAt")
            VALUES ${rows("uploads", (id, f) => `('${id}', 'ws_a', ${f}, 'usr_a', 'a.png', 'image', 'image/png', 1, 'k', 'platform_a', now())`)};
          INSERT INTO creatives (id, "workspaceId", "folderId", "fileName", kind, "contentType", "sizeBytes", "storageKey", "updatedAt")
            VALUES ${rows("creatives", (id, f) => `('${id}', 'ws_a', ${f}, 'a.png', 'image', 'image/png', 1, 'k', now())`)};
          INSERT INTO import_runs (id, "workspaceId", "connectionId", kind, "folderId", "createdById")
            VALUES ${rows("import_runs", (id, f) => `('${id}', 'ws_a', 'conn_a', 'one_off', ${f}, 'usr_a')`)};
          INSERT INTO watched_folders (id, "workspaceId", "connectionId", "sourcePath", "folderId", "createdById")
            VALUES ${rows("watched_folders", (id, f) => `('${id}', 'ws_a', 'conn_a', '${id}/', ${f}, 'usr_a')`)};
          INSERT INTO review_links (id, "workspaceId", "createdById", name, "tokenHash", "folderId")
            VALUES ${rows("review_links", (id, f) => `('${id}', 'ws_a', 'usr_a', 'Review', '${id}', ${f})`)}, ('review_links_sub', 'ws_a', 'usr_a', 'Review', 'sub', 'fld_sub');
        `);

        expect(await applyMigrations(target)).toEqual(expect.arrayContaining([FOREIGN_KEYS, REVIEW_LINK_KEY]));
        const filed = async () => {
          const out: Record<string, Record<string, string | null>> = {};
          for (const table of TABLES) {
            const { rows } = await db.query<{ id: string; folderId: string | null }>(`SELECT id, "folderId" FROM ${table} ORDER BY id`);
            out[table] = Object.fromEntries(rows.map((r) => [r.id.slice(table.length + 1), r.folderId]));
          }
          return out;
        };
        const expected = { dangling: null, foreign: null, kept: "fld_here", root: null };
        expect(await filed()).toEqual(Object.fromEntries(TABLES.map((t) => [t, expected])));
        // Review links: those of a missing (or another workspace's) folder are gone; a link naming creatives (no folder) stays.
        const links = async () => (await db.query<{ id: string; folderId: string | null }>(`SELECT id, "folderId" FROM review_links ORDER BY id`)).rows;
        expect(await links()).toEqual([
          { id: "review_links_kept", folderId: "fld_here" },
          { id: "review_links_root", folderId: null },
          { id: "review_links_sub", folderId: "fld_sub" },
        ]);

        // From now on the database keeps it so: a row cannot name a missing folder, and a deleted folder's rows go to the root.
        await expect(db.query(`UPDATE creatives SET "folderId" = 'fld_deleted' WHERE id = 'creatives_root'`)).rejects.toThrow(/foreign key/);
        await expect(db.query(`UPDATE review_links SET "folderId" = 'fld_deleted' WHERE id = 'review_links_root'`)).rejects.toThrow(/foreign key/);
        await db.query(`DELETE FROM folders WHERE id = 'fld_here'`);
        expect(await filed()).toEqual(Object.fromEntries(TABLES.map((t) => [t, { ...expected, kept: null }])));
        // The folder's links and its subfolder's went with them.
        expect(await links()).toEqual([{ id: "review_links_root", folderId: null }]);
      } finally {
        await db.close();
      }
    },
    SLOW,
  );
});

describe("per-account rollup cursors", () => {
  it(
    "the upgrade gives each platform's default account the platform cursor's days; other accounts get none (their next pull reads 30 days)",
    async () => {
      const old = migrationsBefore(ACCOUNT_CURSORS);
      dirs.push(old);
      const { target, db } = await emptyDatabase();
      try {
        await applyMigrations(target, { migrationsDir: old });
        await db.exec(`
          INSERT INTO workspaces (id, name) VALUES ('ws_a', 'A');
          INSERT INTO ad_accounts (id, "workspaceId", platform, mode, "externalAccountId", "defaultFor", "updatedAt") VALUES
            ('adacct_ny', 'ws_a', 'platform_a', 'sandbox', 'act_1', 'platform_a', now()),
            ('adacct_la', 'ws_a', 'platform_a', 'sandbox', 'act_2', NULL, now()),
            ('adacct_tt', 'ws_a', 'platform_b', 'sandbox', '3', 'platform_b', now());
          INSERT INTO performance_cursors ("workspaceId", platform, "resumeFrom", today, "timeZone", currency) VALUES
            ('ws_a', 'platform_a', '2026-11-28', '2026-11-28', 'America/New_York', 'USD'),
            ('ws_a', 'platform_b', '2026-11-29', '2026-11-29', 'UTC', 'EUR');
        `);

        expect(await applyMigrations(target)).toContain(ACCOUNT_CURSORS);
        const { rows } = await db.query(`SELECT * FROM performance_account_cursors ORDER BY "adAccountId"`);
        expect(rows).toEqual([
          {
            adAccountId: "adacct_ny",
            workspaceId: "ws_a",
            platform: "platform_a",
            resumeFrom: "2026-11-28",
            today: "2026-11-28",
            timeZone: "America/New_York",
          },
          { adAccountId: "adacct_tt", workspaceId: "ws_a", platform: "platform_b", resumeFrom: "2026-11-29", today: "2026-11-29", timeZone: "UTC" },
        ]);
        // The platform's cursor keeps its default account's clock and currency.
        expect((await db.query(`SELECT platform, today, "timeZone", currency FROM performance_cursors ORDER BY platform`)).rows).toEqual([
          { platform: "platform_a", today: "2026-11-28", timeZone: "America/New_York", currency: "USD" },
          { platform: "platform_b", today: "2026-11-29", timeZone: "UTC", currency: "EUR" },
        ]);
      } finally {
        await db.close();
      }
    },
    SLOW,
  );
});

describe("per-account rollup status", () => {
  it(
    "the upgrade gives each platform's status row to its default account; other accounts get theirs at the next rollup",
    async () => {
      const old = migrationsBefore(ACCOUNT_STATUS);
      dirs.push(old);
      const { target, db } = await emptyDatabase();
      try {
        await applyMigrations(target, { migrationsDir: old });
        await db.exec(`
          INSERT INTO workspaces (id, name) VALUES ('ws_a', 'A');
          INSERT INTO ad_accounts (id, "workspaceId", platform, mode, "externalAccountId", "defaultFor", "updatedAt") VALUES
            ('adacct_ny', 'ws_a', 'platform_a', 'sandbox', 'act_1', 'platform_a', now()),
            ('adacct_la', 'ws_a', 'platform_a', 'sandbox', 'act_2', NULL, now()),
            ('adacct_tt', 'ws_a', 'platform_b', 'sandbox', '3', 'platform_b', now());
          INSERT INTO performance_rollup_status ("workspaceId", platform, "lastRunAt", "lastSuccessAt", "lastError") VALUES
            ('ws_a', 'platform_a', '2026-11-29 10:05:00', '2026-11-29 10:05:00', NULL),
            ('ws_a', 'platform_b', '2026-11-29 10:06:00', '2026-11-29 09:06:00', 'refused');
        `);

        expect(await applyMigrations(target)).toContain(ACCOUNT_STATUS);
        const { rows } = await db.query<{ adAccountId: string; platform: string; lastError: string | null }>(
          `SELECT "adAccountId", platform, "lastError" FROM performance_account_rollup_status ORDER BY "adAccountId"`,
        );
        expect(rows).toEqual([
          { adAccountId: "adacct_ny", platform: "platform_a", lastError: null },
          { adAccountId: "adacct_tt", platform: "platform_b", lastError: "refused" },
        ]);
        expect((await db.query(`SELECT to_regclass('performance_rollup_status') AS t`)).rows).toEqual([{ t: null }]);
      } finally {
        await db.close();
      }
    },
    SLOW,
  );
});
