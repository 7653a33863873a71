/** Runs before the server starts: configuration is valid, the database is reachable and migrated. */
import { ConfigError } from "@/lib/config";
import { getConfig } from "@/lib/services";

async function main() {
  let config;
  try {
    config = getConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`[adloom] ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  if (config.database.kind === "postgres" && !config.credentials.key) {
    // Instances sharing one database must seal and open stored platform tokens with the same key.
    console.error(
      "[adloom] Invalid configuration:\n  - CREDENTIALS_KEY: required with DATABASE_URL (the same value on every instance), e.g. openssl rand -base64 32",
    );
    process.exit(1);
  }
  // Generated into DATA_DIR on the first start of the embedded default (so a backup taken any time holds it).
  const { getCredentialKeyRing } = await import("@/lib/credentials/keys");
  getCredentialKeyRing();
  const { migrateConfiguredDatabase } = await import("@/lib/db/migrate-configured");
  const applied = await migrateConfiguredDatabase(config);
  if (applied.length) console.log(`[adloom] applied migrations: ${applied.join(", ")}`);
  // The schema engine leaves a timer pending after its work; do not wait for it.
  process.exit(0);
}

main().catch((err) => {
  console.error(`[adloom] could not prepare the database: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
