import { inject } from "vitest";
import { freshPostgresDatabase } from "../../helpers/fresh-database";
import { migratedDataDir, startServer, tempDataDir, type TestServer } from "../../helpers/server";

/** Where an own server keeps its data: a DATA_DIR, plus a fresh PostgreSQL database on postgres runs. */
export interface ServerStorage {
  dataDir: string;
  databaseUrl?: string;
}

/** Fresh storage on the database this run tests (TEST_DB). */
export async function freshStorage(label: string): Promise<ServerStorage> {
  if (inject("testDb") !== "postgres") return { dataDir: await migratedDataDir(`webhooks-${label}`) };
  return { dataDir: tempDataDir(`webhooks-${label}`), databaseUrl: await freshPostgresDatabase(`webhooks_${label}`) };
}

/** Starts a server of our own (special configuration, restarts) on the given storage. */
export function startOwnServer(storage: ServerStorage, env: Record<string, string> = {}): Promise<TestServer> {
  return startServer({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl, env });
}
