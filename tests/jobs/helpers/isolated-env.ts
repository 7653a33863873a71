// Imported first by every jobs test: points the environment at a fresh database and creates the
// process's service registry over it, before anything asks for a service. Runs on the database
// of the test run (TEST_DB): a fresh PGlite directory or a new PostgreSQL database.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createServices } from "@/lib/services";
import { seedMigratedDatabase } from "../../helpers/database-template";
import { freshDatabaseUrl } from "../../helpers/fresh-database";

export const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-jobs-"));
process.env.DATA_DIR = dataDir;
for (const key of ["DATABASE_URL", "INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY", "INNGEST_DEV", "INNGEST_BASE_URL"]) delete process.env[key];

const databaseUrl = await freshDatabaseUrl("jobs");
if (databaseUrl) process.env.DATABASE_URL = databaseUrl;
else await seedMigratedDatabase(dataDir);

createServices();
