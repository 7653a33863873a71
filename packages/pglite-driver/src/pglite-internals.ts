import { messages, Mutex, parse, PGlite, protocol, types, type QueryOptions, type Results } from "@electric-sql/pglite";

/**
 * Every piece of PGlite the embedded database relies on beyond its documented API (the PGlite class,
 * query/exec/transaction/listen, execProtocol, `types`).
 *
 * Two of our modules go below that API: the database thread (pglite-thread/client.ts) subclasses
 * PGlite's unexported base class and implements its internal hooks, and the prepared-statement layer
 * (prepared-pglite.ts) speaks the wire protocol through PGlite's internal locks and codecs. What they
 * need is here and nowhere else; `pglite-internals.test.ts` exercises each piece against the installed
 * PGlite and names this file when an upgrade changes one.
 */

// ---------------------------------------------------------------------------------------------
// The base class: implements query/exec/transaction on top of the protocol hooks a subclass provides
// (execProtocol*, syncToFs, the blob hooks, _checkReady, _runExclusiveQuery, _runExclusiveTransaction).

/** PGlite's base class: not exported by name, but it is PGlite's prototype. */
export const BasePGlite = Object.getPrototypeOf(PGlite) as abstract new () => PGlite;

/** The locks a subclass of BasePGlite provides (PGlite's own are async-mutex Mutexes). */
export { Mutex };

// ---------------------------------------------------------------------------------------------
// Members of a PGlite instance that are not public API.

export interface PgliteInternals {
  /** Text serializers and parsers by type OID (the base class fills them; array types are added at start). */
  serializers: Record<number, (value: unknown) => string>;
  parsers: Record<number, (text: string, typeId?: number) => unknown>;
  execProtocolStream(
    message: Uint8Array,
    options: { syncToFs?: boolean; throwOnError?: boolean; onNotice?: QueryOptions["onNotice"] },
  ): Promise<BackendMessage[]>;
  /** Waits until the database is open; throws once it is closed. */
  _checkReady(): Promise<void>;
  /** The lock query() takes around each statement. */
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  /** The lock transaction() holds for its whole length. */
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
}

export function internalsOf(db: PGlite): PgliteInternals {
  return db as unknown as PgliteInternals;
}

/** SQL of PGlite's private `_initArrayTypes`: every array type with its element type. */
const ARRAY_TYPES_SQL = `
  SELECT b.oid, b.typarray
  FROM pg_catalog.pg_type a
  LEFT JOIN pg_catalog.pg_type b ON b.oid = a.typelem
  WHERE a.typcategory = 'A'
  GROUP BY b.oid, b.typarray
  ORDER BY b.oid`;

/**
 * What PGlite's `_initArrayTypes` does (serializers and parsers for every array type), run straight
 * through the protocol: the base class's version goes through query(), which waits for readiness.
 */
export async function installArrayTypeCodecs(db: PGlite, execProtocolStream: (message: Uint8Array) => Promise<BackendMessage[]>): Promise<void> {
  const { serializers, parsers } = internalsOf(db) as unknown as { serializers: Record<number, types.Serializer>; parsers: Record<number, types.Parser> };
  const response = await execProtocolStream(protocol.serialize.query(ARRAY_TYPES_SQL));
  const [result] = parseResults(response, parsers);
  for (const { oid, typarray } of (result?.rows ?? []) as { oid: number; typarray: number }[]) {
    serializers[typarray] = (value: unknown) => types.arraySerializer(value, serializers[oid], typarray);
    parsers[typarray] = (text: string) => types.arrayParser(text, parsers[oid]!, typarray);
  }
}

// ---------------------------------------------------------------------------------------------
// The wire protocol as PGlite bundles it (its copy of pg-protocol): messages, serializer, parser.

export type BackendMessage = messages.BackendMessage & { dataTypeIDs?: number[]; code?: string };

export const DatabaseError = messages.DatabaseError;
export const NoticeMessage = messages.NoticeMessage;
export const NotificationResponseMessage = messages.NotificationResponseMessage;
export type NotificationResponseMessage = messages.NotificationResponseMessage;

/** Frontend message serializers (parse, describe, bind, execute, sync, close, query). */
export const serialize = protocol.serialize;

/** Parses backend messages with PGlite's own parser. */
export function parseBackendMessages(bytes: Uint8Array, onMessage: (message: BackendMessage) => void): void {
  new protocol.Parser().parse(bytes, onMessage as (message: messages.BackendMessage) => void);
}

/** A data row shaped as PGlite's parser produces it (`parseResults` reads `fields`). */
export function dataRowMessage(length: number, fields: (string | null)[]): BackendMessage {
  return { name: "dataRow", length, fieldCount: fields.length, fields } as unknown as BackendMessage;
}

/** PGlite's conversion of a response (row description, data rows, command complete...) into query results. */
export function parseResults(response: BackendMessage[], parsers: PgliteInternals["parsers"], options?: QueryOptions): Results<unknown>[] {
  return parse.parseResults(response as Parameters<typeof parse.parseResults>[0], parsers, options);
}
