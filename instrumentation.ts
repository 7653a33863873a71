// Runs once when the Next.js server starts, before it answers requests.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { usePlainProcessEnv } = await import("./lib/server/plain-env");
  usePlainProcessEnv();
  const { startServerServices } = await import("./lib/server/start-services");
  await startServerServices();
}
