/**
 * @adloom/pglite-driver: PGlite for a server process. The public API the app uses, with the lock alone also
 * exported as "@adloom/pglite-driver/lock" (for a process that must not load PGlite); everything else in this
 * package (notably pglite-internals.ts, PGlite's private API) is not for import.
 */
export { ThreadedPGlite } from "./thread/client";
export { withPreparedStatements } from "./prepared-pglite";
export { acquirePgliteLock, currentOwner, DatabaseBusyError, lockFilePath } from "./pglite-lock";
/** Splits a wire-protocol response into backend messages (for tests of the thread's framing). */
export { parseResponse } from "./thread/parse-response";
