import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import {
  bindMigrationAwareSqlAdapterFactory,
  DriverAdapterError,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import type { SchemaEngine } from "@prisma/schema-engine-wasm/schema_engine_bg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";

/**
 * Prisma's schema engine (migrations) as WebAssembly, driven through driver adapters,
 * because the native engine binary cannot be downloaded on every machine we run on.
 */

/** Where migrations run: an open PGlite instance, or a PostgreSQL connection URL. */
export type MigrationTarget = PGlite | string;

/**
 * Makes the empty in-memory database a diff replays the migrations on (the shadow) or asks for the server
 * version (the scratch). `new PGlite()` runs initdb, about five CPU-seconds; the tests pass one that
 * loads an initialised cluster from a dump (tests/helpers/database-template.ts), about one.
 */
export type NewScratchDatabase = () => PGlite;
const newInMemoryDatabase: NewScratchDatabase = () => new PGlite();

export interface SchemaEngineHandle {
  engine: SchemaEngine;
  /** Frees the engine and closes every connection it opened (never the caller's PGlite). */
  close(): Promise<void>;
}

export const SCHEMA_DIR = "prisma/schema";

/** Every `.prisma` file of the schema folder, as the engine's `[path, content]` pairs. */
export function readDatamodels(schemaDir = SCHEMA_DIR): [string, string][] {
  const dir = path.resolve(schemaDir);
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".prisma"))
    .sort()
    .map((name) => {
      const file = path.join(dir, name);
      return [file, fs.readFileSync(file, "utf8")];
    });
}

let engineClass: Promise<typeof SchemaEngine> | undefined;

// The package's main entry imports the .wasm file as an ES module, which Node cannot do,
// and @prisma/migrate's own loader looks for the file in the wrong package.
async function loadEngineClass(): Promise<typeof SchemaEngine> {
  // Resolved from the project, not from this module: inside the server's bundle (the server migrates at start)
  // the bundler would turn a resolve relative to import.meta.url into a module id.
  const gluePath = createRequire(path.join(process.cwd(), "package.json")).resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const glue = await import("@prisma/schema-engine-wasm/schema_engine_bg");
  const bytes = await fs.promises.readFile(gluePath.replace(/\.js$/, ".wasm"));
  const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": glue });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return glue.SchemaEngine;
}

type PgFieldsMessage = { fields: { dataTypeID: number }[] };
type ClientWithConnection = { connection: { prependListener(event: "rowDescription", fn: (msg: PgFieldsMessage) => void): void } };

const PG_CHAR_OID = 18; // PostgreSQL's internal one-byte "char" type
const PG_TEXT_OID = 25;

/**
 * A pool whose result columns of type "char" are reported as text: introspection reads
 * catalog columns of that type (pg_class.relkind, ...), which @prisma/adapter-pg rejects.
 * max 1: the engine's advisory lock is per session, so all its queries must share one.
 */
function createPgPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on("connect", (client) => {
    (client as unknown as ClientWithConnection).connection.prependListener("rowDescription", (msg) => {
      for (const field of msg.fields) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
    });
  });
  return pool;
}

/** The adapter with its executeScript and dispose replaced. */
function withScriptRunner(
  adapter: SqlDriverAdapter,
  executeScript: (script: string) => Promise<void>,
  dispose: () => Promise<void> = () => adapter.dispose(),
): SqlDriverAdapter {
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => adapter.queryRaw(query),
    executeRaw: (query) => adapter.executeRaw(query),
    startTransaction: (isolationLevel) => adapter.startTransaction(isolationLevel),
    getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
    executeScript,
    dispose,
  };
}

function toDriverError(error: unknown): unknown {
  const e = error as { code?: unknown; severity?: unknown; message?: unknown; detail?: string; column?: string; hint?: string };
  if (typeof e?.code !== "string" || typeof e.message !== "string") return error;
  return new DriverAdapterError({
    kind: "postgres",
    code: e.code,
    severity: typeof e.severity === "string" ? e.severity : "ERROR",
    message: e.message,
    detail: e.detail,
    column: e.column,
    hint: e.hint,
  });
}

// pglite-prisma-adapter's executeScript does not await PGlite, so a failing script
// would be reported as applied; exec() runs the script as one simple query.
async function pgliteAdapter(db: PGlite, dispose?: () => Promise<void>): Promise<SqlDriverAdapter> {
  const adapter = (await new PrismaPGlite(db).connect()) as unknown as SqlDriverAdapter;
  const executeScript = async (script: string) => {
    try {
      await db.exec(script);
    } catch (error) {
      throw toDriverError(error);
    }
  };
  return withScriptRunner(adapter, executeScript, dispose);
}

// @prisma/adapter-pg splits scripts on every ";" (breaking string literals and function
// bodies). A query without parameters uses the simple protocol, which takes a whole script.
async function pgAdapter(pool: pg.Pool): Promise<SqlDriverAdapter> {
  const adapter = await new PrismaPg(pool).connect();
  const executeScript = async (script: string) => {
    await adapter.executeRaw({ sql: script, args: [], argTypes: [] });
  };
  return withScriptRunner(adapter, executeScript);
}

function adapterFactory(
  target: MigrationTarget,
  owned: { close(): Promise<void> }[],
  newScratchDatabase: NewScratchDatabase,
): SqlMigrationAwareDriverAdapterFactory {
  const connect = async (): Promise<SqlDriverAdapter> => {
    if (typeof target !== "string") return pgliteAdapter(target, async () => {});
    const pool = createPgPool(target);
    owned.push({ close: () => pool.end() });
    return pgAdapter(pool);
  };
  // Always a fresh in-memory PGlite: it is real PostgreSQL, needs no server-side
  // CREATE DATABASE rights, and never touches the target database.
  const connectToShadowDb = async (): Promise<SqlDriverAdapter> => {
    const shadow = newScratchDatabase();
    const close = async () => {
      if (!shadow.closed) await shadow.close();
    };
    owned.push({ close });
    return pgliteAdapter(shadow, close);
  };
  return {
    provider: "postgres",
    adapterName: typeof target === "string" ? "@prisma/adapter-pg" : "pglite-prisma-adapter",
    connect,
    connectToShadowDb,
  };
}

function logEngine(line: string): void {
  if (process.env.DEBUG?.includes("schema-engine")) process.stderr.write(`[schema-engine] ${line}\n`);
}

/** Starts a schema engine on the target with the schema in `schemaDir`. */
export async function openSchemaEngine(
  target: MigrationTarget,
  schemaDir = SCHEMA_DIR,
  newScratchDatabase: NewScratchDatabase = newInMemoryDatabase,
): Promise<SchemaEngineHandle> {
  const EngineClass = await (engineClass ??= loadEngineClass());
  const owned: { close(): Promise<void> }[] = [];
  const factory = bindMigrationAwareSqlAdapterFactory(adapterFactory(target, owned, newScratchDatabase));
  const engine = await EngineClass.new({ datamodels: readDatamodels(schemaDir) }, logEngine, factory);
  let closed = false;
  return {
    engine,
    async close() {
      if (closed) return;
      closed = true;
      engine.free();
      await Promise.all(owned.map((resource) => resource.close()));
    },
  };
}
