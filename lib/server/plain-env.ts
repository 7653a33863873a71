/**
 * Replaces `process.env` with a plain-object copy of itself, once, in the server process.
 *
 * Node's `process.env` is backed by the C environment: every enumeration walks it and allocates
 * each string again. The Inngest SDK enumerates it several times per executor request (to pick its
 * own variables), which cost ≈ 7% of the server's CPU under webhook load; a plain object is about
 * nine times cheaper to enumerate. Reads and writes through `process.env` keep working, and child
 * processes still receive it (spawn takes `process.env` as their default environment); only a
 * native library calling getenv() after start-up would not see later writes, and none here does.
 */
export function usePlainProcessEnv(): void {
  if (Object.getPrototypeOf(process.env) === Object.prototype) return;
  process.env = { ...process.env };
}
