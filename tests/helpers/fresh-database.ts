import pg from "pg";
import { inject } from "vitest";

let counter = 0;

/** A new, empty database on the run's PostgreSQL server; its URL. The label becomes part of the name. */
export async function freshPostgresDatabase(label: string): Promise<string> {
  const name = `${label}_${Date.now()}_${process.pid}_${++counter}`.replace(/[^a-z0-9_]/gi, "_").toLowerCase();
  const client = new pg.Client({ connectionString: inject("postgresUrl") });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(inject("postgresUrl"));
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh database of the kind the run tests (TEST_DB): a PostgreSQL URL, or undefined for the embedded one (its data dir is fresh instead). */
export async function freshDatabaseUrl(label: string): Promise<string | undefined> {
  return inject("testDb") === "postgres" ? freshPostgresDatabase(label) : undefined;
}
