import { inject, it } from "vitest";

/**
 * For a test in a DATABASE_DEPENDENT file (vitest.config.ts) whose own assertions do not depend on the
 * database engine: it runs once, on the embedded database, instead of again on PostgreSQL.
 */
export const itOnce = it.skipIf(inject("testDb") === "postgres");
