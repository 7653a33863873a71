// Imported first by every jobs test: points the environment at a fresh database and creates the
// process's service registry over it, before anything asks for a service. Runs on the database
// of the test run (TEST_DB): a fresh PGlite directory or a new PostgreSQL database.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import pg from "pg";
import { createServices } from "@/lib/services";

export const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-jobs-"));
process.env.DATA_DIR = dataDir;
for (const key of ["DATABASE_URL", "INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY", "INNGEST_DEV", "INNGEST_BASE_URL"]) delete process.env[key];

if (inject("testDb") === "postgres") {
  const admin = new pg.Client({ connectionString: inject("postgresUrl") });
  await admin.connect();
  const name = `jobs_${Date.now()}_${process.pid}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(inject("postgresUrl"));
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
}

createServices();
