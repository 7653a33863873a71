// Runs once when the Next.js server starts, before it answers requests.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { usePlainProcessEnv } = await import("./lib/server/plain-env");
  usePlainProcessEnv();
  const { prepareDatabase, StartRefused } = await import("./lib/server/prepare-database");
  try {
    const applied = await prepareDatabase();
    if (applied.length) console.log(`[adloom] applied migrations: ${applied.join(", ")}`);
  } catch (err) {
    // Nothing is served from a database that is not ready: say why, and stop (npm start exits with this code).
    console.error(`[adloom] ${err instanceof StartRefused ? err.message : String(err)}`);
    process.exit(1);
  }
  const { observeHttpServer } = await import("./lib/server/http-observer");
  observeHttpServer();
  const { installGracefulShutdown } = await import("./lib/server/shutdown");
  installGracefulShutdown();
  const { startServerServices } = await import("./lib/server/start-services");
  await startServerServices();
}
