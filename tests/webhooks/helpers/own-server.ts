import { inject } from "vitest";
import { startServer, tempDataDir, type TestServer } from "../../helpers/server";

let counter = 0;

/** Where an own server keeps its data: a DATA_DIR, plus a fresh PostgreSQL database on postgres runs. */
export interface ServerStorage {
  dataDir: string;
  databaseUrl?: string;
}

/** Fresh storage on the database this run tests (TEST_DB). */
export async function freshStorage(label: string): Promise<ServerStorage> {
  const dataDir = tempDataDir(`webhooks-${label}`);
  if (inject("testDb") !== "postgres") return { dataDir };
  const postgresUrl = inject("postgresUrl");
  const name = `webhooks_${label.replace(/[^a-z0-9]/g, "_")}_${process.pid}_${++counter}`;
  // The shared run's PostgreSQL server: create a database on it through a throwaway handle.
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  return { dataDir, databaseUrl: postgresUrl.replace(/\/[^/]*$/, `/${name}`) };
}

/** Starts a server of our own (special configuration, restarts) on the given storage. */
export function startOwnServer(storage: ServerStorage, env: Record<string, string> = {}): Promise<TestServer> {
  return startServer({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl, env });
}
