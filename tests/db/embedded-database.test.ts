import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { messages, protocol, type PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseResponse, ThreadedPGlite, withPreparedStatements } from "@adloom/pglite-driver";
import { seedMigratedDatabase } from "../helpers/database-template";

// The embedded database's own layers (packages/pglite-driver: the thread, prepared statements): PGlite pass only.
const onPglite = process.env.TEST_DB !== "postgres";
const SLOW = 120_000;

/**
 * A database directory for a thread to open: a copy of the migrated template (tests/helpers/database-template.ts),
 * not an empty folder, so no initdb runs (about four CPU-seconds each). What is tested here is the thread and the
 * statement layer over an existing cluster; the app's tables in it are not read.
 */
async function databaseDir(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-embedded-db-"));
  await seedMigratedDatabase(dataDir);
  return path.join(dataDir, "db");
}

describe.skipIf(!onPglite)("the embedded database on its own thread, with prepared statements", () => {
  let threaded: ThreadedPGlite;
  let db: PGlite;

  beforeAll(async () => {
    threaded = new ThreadedPGlite(await databaseDir());
    db = withPreparedStatements(threaded as unknown as PGlite, { maxStatements: 3 });
    await db.waitReady;
    await db.exec(`CREATE TABLE items (id int PRIMARY KEY, tags text[], at timestamp(3), doc jsonb, note text)`);
  }, SLOW);

  afterAll(async () => {
    await db?.close();
  });

  it("keeps 16 MB of shared buffers, not PostgreSQL's 128 MB (the OS caches the same files)", async () => {
    const { rows } = await db.query<{ shared_buffers: string }>("SHOW shared_buffers");
    expect(rows).toEqual([{ shared_buffers: "16MB" }]);
  });

  it("round-trips every kind of value, as objects or arrays", async () => {
    const at = new Date("2026-11-22T10:00:00.123Z");
    await db.query("INSERT INTO items (id, tags, at, doc) VALUES ($1, $2, $3, $4)", [1, ["a", "b,c"], at, { nested: [1, 2] }]);
    const { rows, fields } = await db.query("SELECT id, tags, at, doc, note FROM items WHERE id = $1", [1]);
    expect(rows).toEqual([{ id: 1, tags: ["a", "b,c"], at, doc: { nested: [1, 2] }, note: null }]);
    expect(fields.map((f) => f.name)).toEqual(["id", "tags", "at", "doc", "note"]);
    const asArray = await db.query("SELECT id, tags FROM items WHERE id = $1", [1], { rowMode: "array" });
    expect(asArray.rows).toEqual([[1, ["a", "b,c"]]]);
    // A caller's own parsers win for their types (Prisma's adapter brings some).
    const custom = await db.query("SELECT at FROM items WHERE id = $1", [1], { parsers: { 1114: (text: string) => `raw:${text}` } });
    expect(custom.rows).toEqual([{ at: "raw:2026-11-22 10:00:00.123" }]);
  });

  it("reports database errors as PGlite does, with the statement, and goes on", async () => {
    const err = await db.query("INSERT INTO items (id) VALUES ($1)", [1]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(messages.DatabaseError);
    expect(err).toMatchObject({ code: "23505", query: "INSERT INTO items (id) VALUES ($1)", params: [1] });
    const syntax = await db.query("SELEC 1").catch((e: unknown) => e);
    expect(syntax).toMatchObject({ code: "42601" });
    expect((await db.query("SELECT count(*)::int AS n FROM items")).rows).toEqual([{ n: 1 }]);
  });

  it("runs concurrent statements each in its own transaction: one failing leaves the others", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) => db.query("INSERT INTO items (id, note) VALUES ($1, $2) RETURNING id", [100 + (i % 40), `n${i}`])),
    );
    const failed = results.filter((r) => r.status === "rejected");
    expect(failed).toHaveLength(20);
    for (const f of failed) expect((f as PromiseRejectedResult).reason).toMatchObject({ code: "23505" });
    const inserted = results.flatMap((r) => (r.status === "fulfilled" ? (r.value.rows as { id: number }[]).map((row) => row.id) : []));
    expect(new Set(inserted).size).toBe(40);
    expect((await db.query("SELECT count(*)::int AS n FROM items WHERE id >= 100")).rows).toEqual([{ n: 40 }]);
  });

  it("commits and rolls back transactions, and keeps other statements out of an open one", async () => {
    const inside = await db.transaction(async (tx) => {
      await tx.query("INSERT INTO items (id) VALUES ($1)", [2]);
      // Issued during the transaction from outside it: must wait for it, not join it.
      const outside = db.query("SELECT count(*)::int AS n FROM items WHERE id = 3");
      await tx.query("INSERT INTO items (id) VALUES ($1)", [3]);
      return { outside, count: (await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM items WHERE id IN (2, 3)")).rows[0]!.n };
    });
    expect(inside.count).toBe(2);
    expect((await inside.outside).rows).toEqual([{ n: 1 }]);

    await db.transaction(async (tx) => {
      await tx.query("INSERT INTO items (id) VALUES ($1)", [4]);
      await tx.rollback();
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO items (id) VALUES ($1)", [5]);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect((await db.query("SELECT id FROM items WHERE id IN (4, 5)")).rows).toEqual([]);
  });

  it("delivers a notification before the statement that sent it returns", async () => {
    const seen: string[] = [];
    const unlisten = await db.listen("item_changes", (payload) => seen.push(`notified ${payload}`));
    await db.query("SELECT pg_notify('item_changes', $1)", ["one"]);
    seen.push("returned");
    expect(seen).toEqual(["notified one", "returned"]);
    await unlisten();
    await db.query("SELECT pg_notify('item_changes', 'two')");
    expect(seen).toHaveLength(2);
  });

  it("prepares a statement again when DDL changed what it returns", async () => {
    const read = "SELECT * FROM items WHERE id = $1";
    expect(Object.keys((await db.query<Record<string, unknown>>(read, [1])).rows[0]!)).not.toContain("extra");
    await db.exec("ALTER TABLE items ADD COLUMN extra text DEFAULT 'x'");
    expect((await db.query<Record<string, unknown>>(read, [1])).rows[0]).toMatchObject({ id: 1, extra: "x" });
  });

  it("plans a statement with a parameterized LIMIT for its values each time, others once (generic plan)", async () => {
    for (let limit = 1; limit <= 8; limit++) {
      const page = await db.query<{ id: number }>("SELECT id FROM items ORDER BY id LIMIT $1", [limit]);
      expect(page.rows).toHaveLength(limit); // dozens of rows are there by now
      expect(page.rows[0]).toEqual({ id: 1 });
      await db.query("SELECT id FROM items WHERE id = $1", [limit]);
    }
    const { rows } = await db.query<{ statement: string; generic_plans: number; custom_plans: number }>(
      "SELECT statement, generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE statement LIKE 'SELECT id FROM items %'",
    );
    const byText = Object.fromEntries(rows.map((r) => [r.statement, r]));
    // The LIMIT statement runs unnamed (parsed and planned with its values), never by its name.
    expect(byText["SELECT id FROM items ORDER BY id LIMIT $1"]).toMatchObject({ generic_plans: 0, custom_plans: 0 });
    expect(byText["SELECT id FROM items WHERE id = $1"]!.generic_plans).toBeGreaterThan(0);
  });

  it("keeps working past its statement limit (least recently used ones are closed)", async () => {
    for (let round = 0; round < 3; round++) {
      for (let k = 0; k < 6; k++) {
        const { rows } = await db.query<{ v: number }>(`SELECT $1::int + ${k} AS v`, [round]);
        expect(rows).toEqual([{ v: round + k }]);
      }
    }
    // Closed statements are really gone from the session, not piling up.
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_prepared_statements");
    expect(rows[0]!.n).toBeLessThanOrEqual(4);
  });
});

describe.skipIf(!onPglite)("reading the database's responses", () => {
  let threaded: ThreadedPGlite;
  beforeAll(async () => {
    threaded = new ThreadedPGlite(await databaseDir());
    await threaded.waitReady;
  }, SLOW);
  afterAll(async () => {
    await threaded?.close();
  });

  const both = (bytes: Uint8Array) => {
    const ours: unknown[] = [];
    const pglites: unknown[] = [];
    parseResponse(bytes, (m) => ours.push({ ...m }));
    new protocol.Parser().parse(bytes, (m) => pglites.push({ ...m }));
    return { ours, pglites };
  };

  it("gives the same messages as PGlite's parser: rows with NULLs, empty and multi-byte text, errors, notices", async () => {
    const script = [
      "SELECT g AS n, CASE WHEN g % 3 = 0 THEN NULL ELSE repeat('é✓', g) END AS text, '' AS empty, g::text || 'x' AS mixed FROM generate_series(1, 300) g",
      "SELECT 1/0",
      "DO $$ BEGIN RAISE NOTICE 'heads up'; END $$",
      "SELECT 'after' AS word",
    ];
    for (const sql of script) {
      const bytes = await threaded.execProtocolRaw(protocol.serialize.query(sql), { syncToFs: false });
      const { ours, pglites } = both(bytes);
      expect(ours).toEqual(pglites);
      expect(ours.length).toBeGreaterThan(1);
    }
    const rows = both(await threaded.execProtocolRaw(protocol.serialize.query(script[0]!), { syncToFs: false })).ours.filter(
      (m) => (m as { name: string }).name === "dataRow",
    );
    expect(rows).toHaveLength(300);
    expect(rows[2]).toMatchObject({ fieldCount: 4, fields: ["3", null, "", "3x"] });
    expect(rows[1]).toMatchObject({ fields: ["2", "é✓é✓", "", "2x"] });
  });

  it("refuses a truncated response instead of inventing rows", async () => {
    const bytes = await threaded.execProtocolRaw(protocol.serialize.query("SELECT 'abc' AS word"), { syncToFs: false });
    expect(() => parseResponse(bytes.subarray(0, bytes.length - 3), () => undefined)).toThrow(/malformed/);
  });
});

describe.skipIf(!onPglite)("when the database thread stops", () => {
  it(
    "fails pending and later statements with a clear error instead of hanging",
    async () => {
      const threaded = new ThreadedPGlite(await databaseDir());
      await threaded.waitReady;
      const worker = (threaded as unknown as { worker: { terminate(): Promise<number> } }).worker;
      const pending = threaded.query("SELECT pg_sleep(0.5)");
      await worker.terminate();
      await expect(pending).rejects.toThrow(/embedded database thread exited/);
      await expect(threaded.query("SELECT 1")).rejects.toThrow(/embedded database thread exited/);
    },
    SLOW,
  );

  it(
    "closes cleanly, refusing statements afterwards",
    async () => {
      const threaded = new ThreadedPGlite(await databaseDir());
      await threaded.query("SELECT 1");
      await threaded.close();
      expect(threaded.closed).toBe(true);
      await expect(threaded.query("SELECT 1")).rejects.toThrow(/closed/);
    },
    SLOW,
  );
});

describe.skipIf(!onPglite)("a new data directory", () => {
  const MB = 1024 * 1024;
  /** RSS this process gained while a thread opened `dir` and answered one statement; the database stays open. */
  async function open(dir: string): Promise<{ db: ThreadedPGlite; rssGrowth: number }> {
    const before = process.memoryUsage().rss;
    const db = new ThreadedPGlite(dir);
    await db.query("SELECT 1");
    return { db, rssGrowth: process.memoryUsage().rss - before };
  }

  it(
    "gets its cluster from a thread that is then replaced, so the serving thread keeps no initdb memory",
    async () => {
      const existing = await open(await databaseDir());
      await existing.db.close();
      const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "adloom-new-db-")), "db");
      const created = await open(dir);
      try {
        expect(fs.existsSync(path.join(dir, "PG_VERSION"))).toBe(true);
        await created.db.exec("CREATE TABLE notes (id int PRIMARY KEY, body text); INSERT INTO notes VALUES (1, 'kept')");
        expect((await created.db.query<{ body: string }>("SELECT body FROM notes")).rows).toEqual([{ body: "kept" }]);
        // initdb runs as a second WebAssembly instance; left in the serving thread it added about 330 MB here.
        expect(created.rssGrowth).toBeLessThan(existing.rssGrowth + 200 * MB);
      } finally {
        await created.db.close();
      }
      const reopened = new ThreadedPGlite(dir);
      expect((await reopened.query<{ body: string }>("SELECT body FROM notes")).rows).toEqual([{ body: "kept" }]);
      await reopened.close();
    },
    SLOW,
  );
});
