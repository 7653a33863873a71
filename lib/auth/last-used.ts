import { defineService } from "@/lib/services";

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * A throttled "last used" writer for credentials (API keys, OAuth grants): each credential's
 * timestamp is written at most once a minute per process, and only when the stored one is older,
 * off the request's critical path (a failed write is logged, never the request's error).
 */
export function lastUsedRecorder(name: string, write: (id: string, at: Date, olderThan: Date) => Promise<unknown>) {
  const lastWrittenAt = defineService(`auth.last-used.${name}`, () => new Map<string, number>());
  return (id: string, storedLastUsedAt: Date | null): void => {
    const now = Date.now();
    if (storedLastUsedAt && now - storedLastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
    const written = lastWrittenAt();
    if (now - (written.get(id) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    if (written.size > 10_000) written.clear();
    written.set(id, now);
    write(id, new Date(now), new Date(now - LAST_USED_RESOLUTION_MS)).catch((err: unknown) => console.error(`[${name}] could not record lastUsedAt`, err));
  };
}
