// Runs once when the Next.js server starts, before it answers requests.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { usePlainProcessEnv } = await import("./lib/server/plain-env");
  usePlainProcessEnv();
  const { observeHttpServer } = await import("./lib/server/http-observer");
  observeHttpServer();
  const { installGracefulShutdown } = await import("./lib/server/shutdown");
  installGracefulShutdown();
  const { startServerServices } = await import("./lib/server/start-services");
  await startServerServices();
}
