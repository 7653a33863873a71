import { getPglite } from "@/lib/db/client";
import { defineService } from "@/lib/services";

/**
 * Resolved API keys, kept in memory on the embedded database only. Every change
 * that can alter what a key may do fires NOTIFY adloom_auth_changed (a trigger, see
 * the auth_change_notify migration); PGlite delivers it before the writing query
 * returns, so the cache is emptied before any later request can read it. On
 * PostgreSQL, where other instances write too and notifications arrive late,
 * nothing is cached.
 */
const CHANNEL = "adloom_auth_changed";
const MAX_ENTRIES = 10_000;
/** A backstop only: correctness comes from the notifications. */
const MAX_AGE_MS = 5 * 60_000;

interface Cache {
  entries: Map<string, { value: unknown; storedAt: number }>;
  /** Bumped by every notification; a read that raced one is not stored. */
  generation: number;
  /** Resolves to the unlisten function once listening, or null when listening failed. */
  listening: Promise<(() => Promise<void>) | null>;
}

function listenForChanges(): Cache | null {
  const pglite = getPglite();
  if (!pglite) return null;
  const created: Cache = { entries: new Map(), generation: 0, listening: Promise.resolve(null) };
  created.listening = pglite
    .listen(CHANNEL, () => {
      created.generation++;
      created.entries.clear();
    })
    .catch(() => null);
  return created;
}

async function stopListening(cache: Cache | null): Promise<void> {
  const unlisten = await cache?.listening;
  await unlisten?.().catch(() => undefined);
}

/** The process's key cache; null on PostgreSQL. */
const keyCache = defineService("auth.key-cache", listenForChanges, stopListening);

/** The value for `hash`, from memory when still valid, else loaded (and kept when found). */
export async function cachedKeyLookup<T>(hash: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
  const c = keyCache();
  if (!c || !(await c.listening)) return load();
  const hit = c.entries.get(hash);
  if (hit && Date.now() - hit.storedAt < MAX_AGE_MS) return hit.value as T;
  const generation = c.generation;
  const value = await load();
  if (value !== undefined && generation === c.generation) {
    if (c.entries.size >= MAX_ENTRIES) c.entries.clear();
    c.entries.set(hash, { value, storedAt: Date.now() });
  }
  return value;
}
