import { PGlite, type ExecProtocolOptions, type ExecProtocolResult } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseResponse } from "./thread/parse-response";
import {
  BasePGlite,
  DatabaseError,
  installArrayTypeCodecs,
  internalsOf,
  Mutex,
  parseBackendMessages,
  parseResults,
  serialize,
  type BackendMessage,
} from "./pglite-internals";
import { withPreparedStatements } from "./prepared-pglite";
import { emptyDatabaseFactory } from "../../../tests/helpers/empty-cluster";

/**
 * Canary for PGlite's private API: every piece pglite-internals.ts relies on, exercised against the
 * installed PGlite (in memory). When one of these fails after an upgrade, PGlite changed below its
 * public API: fix packages/pglite-driver/src/pglite-internals.ts (and what it serves), nothing else.
 */
const changed = (what: string) => `PGlite private API changed: ${what}. Everything that relies on it is in packages/pglite-driver/src/pglite-internals.ts`;

let db: PGlite;
beforeAll(async () => {
  // No tables yet: a table adds its own row and array types, which PGlite's start-up codecs predate.
  // An empty cluster loaded from a dump: the same database initdb makes, without running initdb (~4 CPU-s).
  db = (await emptyDatabaseFactory())();
  await db.waitReady;
});
afterAll(() => db?.close());

/** A minimal subclass of the base class over a real PGlite, recording which internal hooks the base class calls. */
function hookedBase(inner: PGlite) {
  const calls = new Set<string>();
  const queryLock = new Mutex();
  const transactionLock = new Mutex();
  class Hooked extends BasePGlite {
    debug = 0 as const;
    get ready() {
      return true;
    }
    get closed() {
      return false;
    }
    async close() {}
    async execProtocol(message: Uint8Array, options: ExecProtocolOptions = {}): Promise<ExecProtocolResult> {
      calls.add("execProtocol");
      return inner.execProtocol(message, options);
    }
    async execProtocolStream(message: Uint8Array, options: ExecProtocolOptions = {}): Promise<BackendMessage[]> {
      calls.add("execProtocolStream");
      return (await inner.execProtocol(message, options)).messages;
    }
    async execProtocolRaw(message: Uint8Array, options: { syncToFs?: boolean } = {}) {
      calls.add("execProtocolRaw");
      return inner.execProtocolRaw(message, options);
    }
    async execProtocolRawStream(message: Uint8Array, options: { syncToFs?: boolean; onRawData: (data: Uint8Array) => void }) {
      calls.add("execProtocolRawStream");
      options.onRawData(await inner.execProtocolRaw(message, options));
    }
    async syncToFs() {}
    async listen() {
      return async () => {};
    }
    async _handleBlob() {
      calls.add("_handleBlob");
    }
    async _getWrittenBlob() {
      return undefined;
    }
    async _cleanupBlob() {
      calls.add("_cleanupBlob");
    }
    async _checkReady() {
      calls.add("_checkReady");
    }
    _runExclusiveQuery<T>(fn: () => Promise<T>) {
      calls.add("_runExclusiveQuery");
      return queryLock.runExclusive(fn);
    }
    _runExclusiveTransaction<T>(fn: () => Promise<T>) {
      calls.add("_runExclusiveTransaction");
      return transactionLock.runExclusive(fn);
    }
  }
  return { base: new (Hooked as unknown as new () => PGlite)(), calls };
}

describe("PGlite private API canary (packages/pglite-driver/src/pglite-internals.ts)", () => {
  it("PGlite's unexported base class implements query, exec and transaction on the hooks a subclass provides", async () => {
    expect(typeof BasePGlite, changed("PGlite's prototype is no longer a base class")).toBe("function");
    expect(PGlite.prototype instanceof BasePGlite, changed("PGlite no longer extends its base class")).toBe(true);
    const { base, calls } = hookedBase(db);
    await installArrayTypeCodecs(base, (message) => internalsOf(base).execProtocolStream(message, { syncToFs: false }));
    const result = await base.query<{ n: number; tags: string[] }>("SELECT $1::int AS n, ARRAY['a','b'] AS tags", [41]);
    expect(result.rows, changed("the base class's query() no longer works over a subclass's hooks")).toEqual([{ n: 41, tags: ["a", "b"] }]);
    const inTx = await base.transaction(async (tx) => (await tx.query<{ one: number }>("SELECT 1 AS one")).rows[0]!.one);
    expect(inTx, changed("the base class's transaction() no longer works over a subclass's hooks")).toBe(1);
    for (const hook of ["_checkReady", "_runExclusiveQuery", "_runExclusiveTransaction"]) {
      expect(calls.has(hook), changed(`the base class no longer calls ${hook}()`)).toBe(true);
    }
    expect(
      calls.has("execProtocol") || calls.has("execProtocolStream") || calls.has("execProtocolRawStream"),
      changed("the base class no longer sends statements through execProtocol*"),
    ).toBe(true);
  });

  it("our replica of _initArrayTypes installs the same array codecs PGlite does", async () => {
    const { base } = hookedBase(db);
    await installArrayTypeCodecs(base, (message) => internalsOf(base).execProtocolStream(message, { syncToFs: false }));
    const oids = (codecs: Record<number, unknown>) =>
      Object.keys(codecs)
        .map(Number)
        .sort((a, b) => a - b);
    expect(oids(internalsOf(base).parsers), changed("PGlite's parsers (built-in and array types) differ from our _initArrayTypes replica")).toEqual(
      oids(internalsOf(db).parsers),
    );
    expect(oids(internalsOf(base).serializers), changed("PGlite's serializers differ from our _initArrayTypes replica")).toEqual(
      oids(internalsOf(db).serializers),
    );
  });

  it("a PGlite instance has the codecs, locks and protocol entry point the prepared-statement layer uses", async () => {
    const internals = internalsOf(db);
    for (const member of ["execProtocolStream", "_checkReady", "_runExclusiveQuery", "_runExclusiveTransaction"] as const) {
      expect(typeof internals[member], changed(`PGlite instances no longer have ${member}()`)).toBe("function");
    }
    expect(typeof internals.parsers[25], changed("PGlite instances no longer have parsers by type OID")).toBe("function");
    expect(typeof internals.serializers[1184], changed("PGlite instances no longer have serializers by type OID")).toBe("function");
    expect(await internals._runExclusiveQuery(async () => "locked"), changed("_runExclusiveQuery() no longer runs its callback")).toBe("locked");
    expect(await internals._runExclusiveTransaction(async () => "locked"), changed("_runExclusiveTransaction() no longer runs its callback")).toBe("locked");
  });

  it("named statements over execProtocolStream, parsed with parseResults, answer what query() answers", async () => {
    const internals = internalsOf(db);
    const prepared = await internals.execProtocolStream(
      concat([
        serialize.parse({ name: "canary_1", text: "SELECT $1::int + 1 AS n, $2::text[] AS tags" }),
        serialize.describe({ type: "S", name: "canary_1" }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const paramTypes = prepared.find((m) => m.name === "parameterDescription")?.dataTypeIDs;
    const rowDescription = prepared.find((m) => m.name === "rowDescription");
    expect(paramTypes, changed("Describe no longer yields a parameterDescription with dataTypeIDs")).toEqual([23, 1009]);
    expect(rowDescription, changed("Describe no longer yields a rowDescription")).toBeDefined();
    const values = [internals.serializers[23]!(41), internals.serializers[1009]!(["x", "y"])];
    const answer = await internals.execProtocolStream(concat([serialize.bind({ statement: "canary_1", values }), serialize.execute({}), serialize.sync()]), {
      syncToFs: false,
    });
    const [result] = parseResults([rowDescription!, ...answer], internals.parsers);
    expect(result?.rows, changed("parseResults() over a described statement's rows changed")).toEqual([{ n: 42, tags: ["x", "y"] }]);

    await db.exec("CREATE TABLE canary (id int PRIMARY KEY, tags text[], at timestamptz)");
    const wrapped = withPreparedStatements(db);
    const sql = "INSERT INTO canary (id, tags, at) VALUES ($1, $2, $3) RETURNING id, tags, at";
    const at = new Date("2030-01-02T03:04:05.678Z");
    const ours = await wrapped.query(sql, [1, ["p", "q"], at]);
    const theirs = await db.query("SELECT id, tags, at FROM canary WHERE id = $1", [1]);
    expect([ours.rows, ours.fields], changed("prepared statements no longer answer like query()")).toEqual([theirs.rows, theirs.fields]);
    const err = await wrapped.query(sql, [1, [], at]).catch((e: unknown) => e);
    expect(err instanceof DatabaseError && (err as { code?: string }).code, changed("errors are no longer DatabaseError with a SQLSTATE code")).toBe("23505");
  });

  it("PGlite's parser gives data rows the shape our fast row decoder produces", async () => {
    const bytes = await db.execProtocolRaw(serialize.query("SELECT 'a' AS x, NULL AS y, 'été' AS z FROM generate_series(1, 2)"), { syncToFs: false });
    const theirs: BackendMessage[] = [];
    const ours: BackendMessage[] = [];
    parseBackendMessages(bytes, (m) => theirs.push({ ...m }));
    parseResponse(bytes, (m) => ours.push({ ...m }));
    const rows = (list: BackendMessage[]) => list.filter((m) => m.name === "dataRow");
    expect(rows(ours), changed("PGlite's dataRow messages no longer look like { name, length, fieldCount, fields }")).toEqual(rows(theirs));
    expect(
      ours.map((m) => m.name),
      changed("PGlite's parser names messages differently"),
    ).toEqual(theirs.map((m) => m.name));
  });
});

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
