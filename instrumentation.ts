// Runs once when the Next.js server starts, before it answers requests.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServerServices } = await import("./lib/server/start-services");
  await startServerServices();
}
