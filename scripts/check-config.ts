// What `npm start` checks before it builds or starts anything (scripts/start.mjs bundles and runs this):
// the configuration parses, and instances sharing PostgreSQL have the key that seals stored platform tokens.
// The server itself then prepares the database (lib/server/prepare-database.ts).
import { ConfigError, parseConfig } from "@/lib/config";

/** The reason the configuration cannot start a server, or null when it can. */
export function configurationProblem(env: NodeJS.ProcessEnv): string | null {
  try {
    const config = parseConfig(env);
    if (config.database.kind === "postgres" && !config.credentials.key) {
      return "Invalid configuration:\n  - CREDENTIALS_KEY: required with DATABASE_URL (the same value on every instance), e.g. openssl rand -base64 32";
    }
    return null;
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
}
