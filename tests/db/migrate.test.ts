import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, createMigration, listMigrations, MIGRATIONS_DIR } from "@/lib/db/migrate";
import { openSchemaEngine, SCHEMA_DIR } from "@/lib/db/schema-engine";
import { emptyDatabaseFactory } from "../helpers/database-template";
import { postgresUnavailableReason, startPostgres, type TestPostgres } from "../helpers/postgres";

const CORE_TABLES = ["users", "workspaces", "memberships", "membership_folders", "folders", "api_keys", "idempotency_records", "rate_limit_windows"];
const NO_FILTERS = { externalTables: [], externalEnums: [] };
// Every fresh PGlite runs initdb (~5 CPU-s); createMigration needs two (a scratch and a shadow database). Apart from
// the first test, which applies the migrations to a database initdb just made on disk, the empty databases here
// are loaded from a dump of an initialised cluster (~1 CPU-s each): they are as empty, and initdb is not under test.
const SLOW = 180_000;
let newEmptyDatabase: () => PGlite;
beforeAll(async () => {
  if (onPglite) newEmptyDatabase = await emptyDatabaseFactory();
}, SLOW);

// `npm test` runs every suite once per database (TEST_DB): each part here runs in one pass only.
const onPglite = process.env.TEST_DB !== "postgres";

const migrationNames = () => listMigrations().migrationDirectories.map((m) => m.path);
const sha256 = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");

interface Queryable {
  query<T>(sql: string): Promise<{ rows: T[] }>;
}

async function tableNames(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
  return rows.map((r) => r.table_name);
}

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
  logs: string | null;
}

async function migrationRows(db: Queryable): Promise<MigrationRow[]> {
  const { rows } = await db.query<MigrationRow>(
    `SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count, logs
     FROM "_prisma_migrations" ORDER BY migration_name`,
  );
  return rows;
}

/** The rows `prisma migrate deploy` writes: one per folder, finished, with the script's SHA-256. */
function expectDeployRows(rows: MigrationRow[]): void {
  expect(rows.map((r) => r.migration_name)).toEqual(migrationNames());
  for (const row of rows) {
    expect(row.checksum).toBe(sha256(path.join(MIGRATIONS_DIR, row.migration_name, "migration.sql")));
    expect(row.finished_at).not.toBeNull();
    expect(row.rolled_back_at).toBeNull();
    expect(row.applied_steps_count).toBe(1);
  }
}

/** A scratch copy of the migrations folder, to add migrations to. */
function copyMigrations(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-migrations-"));
  fs.cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}

function addMigration(dir: string, name: string, sql: string): void {
  fs.mkdirSync(path.join(dir, name));
  fs.writeFileSync(path.join(dir, name, "migration.sql"), sql);
}

describe.runIf(onPglite)("applyMigrations on PGlite", () => {
  let dataDir: string;
  let db: PGlite;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-pglite-"));
    db = new PGlite(dataDir);
  });
  afterAll(async () => {
    await db?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // initdb on disk and every migration: 39-72 s under the shared machine's load, past the default 60 s once.
  it(
    "applies every migration to a fresh database and records it like prisma migrate deploy",
    async () => {
      expect(await applyMigrations(db)).toEqual(migrationNames());
      expect(await tableNames(db)).toEqual(expect.arrayContaining([...CORE_TABLES, "_prisma_migrations"]));
      expectDeployRows(await migrationRows(db));
    },
    SLOW,
  );

  it("applies nothing on a second run, also after reopening the directory", async () => {
    expect(await applyMigrations(db)).toEqual([]);
    await db.close();
    db = new PGlite(dataDir);
    expect(await applyMigrations(db)).toEqual([]);
    expectDeployRows(await migrationRows(db));
  });

  // Going back a version (docs/operations.md, "Upgrading"): the previous build finds its own migrations applied.
  it("applies nothing for a build older than the database, and leaves the newer migration recorded", async () => {
    const older = copyMigrations();
    try {
      fs.rmSync(path.join(older, migrationNames().at(-1)!), { recursive: true });
      expect(await applyMigrations(db, { migrationsDir: older })).toEqual([]);
      expectDeployRows(await migrationRows(db));
    } finally {
      fs.rmSync(older, { recursive: true, force: true });
    }
  });
});

describe.runIf(onPglite)("a broken migration", () => {
  it("fails with the database's message, is recorded as failed, and blocks later runs", async () => {
    const dir = copyMigrations();
    addMigration(dir, "99990101000000_broken", 'CREATE TABLE "ok_before" (id INT);\nCREATE TABLE "broken" (id INT,);\n');
    const db = newEmptyDatabase();
    try {
      await expect(applyMigrations(db, { migrationsDir: dir })).rejects.toThrow(/syntax error[\s\S]*99990101000000_broken/);
      const failed = (await migrationRows(db)).find((r) => r.migration_name === "99990101000000_broken");
      expect(failed?.finished_at).toBeNull();
      expect(failed?.logs).toMatch(/syntax error/);
      // The script runs as one statement batch, so its first table was rolled back with it.
      expect(await tableNames(db)).not.toContain("ok_before");
      await expect(applyMigrations(db, { migrationsDir: dir })).rejects.toThrow(/P3009/);
    } finally {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.runIf(onPglite)("createMigration", () => {
  it(
    "finds no changes between prisma/migrations and prisma/schema (run db:migration if this fails)",
    async () => {
      const dir = copyMigrations();
      try {
        const folder = await createMigration("pending", { migrationsDir: dir, newScratchDatabase: newEmptyDatabase });
        const pendingSql = folder && fs.readFileSync(path.join(dir, folder, "migration.sql"), "utf8");
        expect(pendingSql, "prisma/schema has changes no migration has: run npm run db:migration -- <name>").toBeNull();
        expect(fs.readdirSync(dir).sort()).toEqual(fs.readdirSync(MIGRATIONS_DIR).sort());
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    SLOW,
  );

  it(
    "writes a new migration in the standard layout that applies on top of the others",
    async () => {
      const dir = copyMigrations();
      const schemaDir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-schema-"));
      fs.cpSync(SCHEMA_DIR, schemaDir, { recursive: true });
      fs.writeFileSync(path.join(schemaDir, "extra.prisma"), 'model Extra {\n  id   String @id\n  note String @default("a;b")\n\n  @@map("extras")\n}\n');
      const db = newEmptyDatabase();
      try {
        const folder = await createMigration("add_extras", { migrationsDir: dir, schemaDir, newScratchDatabase: newEmptyDatabase });
        expect(folder).toMatch(/^\d{14}_add_extras$/);
        const sql = fs.readFileSync(path.join(dir, folder!, "migration.sql"), "utf8");
        expect(sql).toContain('CREATE TABLE "extras"');
        expect(fs.readFileSync(path.join(dir, "migration_lock.toml"), "utf8")).toContain('provider = "postgresql"');

        expect(await applyMigrations(db, { migrationsDir: dir, schemaDir })).toContain(folder);
        expect(await tableNames(db)).toContain("extras");
        expect(await createMigration("again", { migrationsDir: dir, schemaDir, newScratchDatabase: newEmptyDatabase })).toBeNull();
      } finally {
        await db.close();
        fs.rmSync(dir, { recursive: true, force: true });
        fs.rmSync(schemaDir, { recursive: true, force: true });
      }
    },
    SLOW,
  );

  it("rejects names outside [a-z0-9_]", async () => {
    await expect(createMigration("Add-Things")).rejects.toThrow(/must match/);
  });
});

const noPostgres = process.env.TEST_DB === "pglite" ? "TEST_DB=pglite" : postgresUnavailableReason();

describe.skipIf(noPostgres)(`applyMigrations on PostgreSQL${noPostgres ? ` (skipped: ${noPostgres})` : ""}`, () => {
  let server: TestPostgres;
  let url: string;
  let client: pg.Client;

  beforeAll(async () => {
    server = await startPostgres();
    url = await server.createDatabase("migrate_test");
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await server?.stop();
  });

  it("applies every migration and records it like prisma migrate deploy", async () => {
    expect(await applyMigrations(url)).toEqual(migrationNames());
    expect(await tableNames(client)).toEqual(expect.arrayContaining([...CORE_TABLES, "_prisma_migrations"]));
    expectDeployRows(await migrationRows(client));
  });

  it("applies nothing on a second run", async () => {
    expect(await applyMigrations(url)).toEqual([]);
  });

  it("runs each script whole, so semicolons inside literals and function bodies survive", async () => {
    const dir = copyMigrations();
    addMigration(
      dir,
      "99990101000000_semicolons",
      `CREATE TABLE "notes" ("body" TEXT NOT NULL DEFAULT 'a;b');
CREATE FUNCTION "notes_touch"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."body" := NEW."body" || ';';
  RETURN NEW;
END;
$$;
`,
    );
    const otherUrl = await server.createDatabase("semicolons");
    const other = new pg.Client({ connectionString: otherUrl });
    await other.connect();
    try {
      expect(await applyMigrations(otherUrl, { migrationsDir: dir })).toContain("99990101000000_semicolons");
      const { rows } = await other.query<{ column_default: string }>(
        "SELECT column_default FROM information_schema.columns WHERE table_name = 'notes' AND column_name = 'body'",
      );
      expect(rows[0].column_default).toContain("a;b");
    } finally {
      await other.end();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it(
    'introspects the database ("char" catalog columns) and diffs against an in-memory shadow database',
    async () => {
      const { engine, close } = await openSchemaEngine(url);
      try {
        // devDiagnostic reads the target's schema and replays the migrations on the shadow database.
        const { action } = await engine.devDiagnostic({ migrationsList: listMigrations(), filters: NO_FILTERS });
        expect(action.tag).toBe("createMigration");
      } finally {
        await close();
      }
      const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'prisma_migrate_shadow%'");
      expect(rows).toEqual([]);
    },
    SLOW,
  );
});
