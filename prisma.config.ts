import { defineConfig } from "prisma/config";

// The schema is split into one file per domain under prisma/schema; migrations
// keep the standard layout so `prisma migrate deploy` works where the native
// engine exists. On machines without it, scripts/db-*.ts drive the WASM engine.
export default defineConfig({
  schema: "prisma/schema",
  migrations: { path: "prisma/migrations" },
});
