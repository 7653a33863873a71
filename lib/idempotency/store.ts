import { createHash } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { AppError, badRequest } from "@/lib/errors";
import { isUniqueViolation } from "@/lib/db/errors";

export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;
const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A "processing" record older than this belongs to a request whose process died: it is taken over. */
const ABANDONED_AFTER_MS = 15 * 60 * 1000;

export interface StoredResponse {
  status: number;
  body: string;
}

export type IdempotencyClaim =
  | { kind: "claimed"; workspaceId: string; key: string }
  /** `bodyDigest`: the first request's streamed body, when it had one (see `completeIdempotencyKey`). */
  | { kind: "replay"; response: StoredResponse; bodyDigest: string | null };

export function validateIdempotencyKey(key: string): string {
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw badRequest(`Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
  }
  return key;
}

/** What makes two requests "the same": e.g. method, path and body, or tool name and arguments. */
export function fingerprint(...parts: string[]): string {
  const hash = createHash("sha256");
  for (const p of parts) hash.update(p).update("\u0000");
  return hash.digest("hex");
}

/**
 * Claims a key for a request. Returns "replay" with the first response when the
 * same request already completed; throws 409 `conflict` when the key belongs to a
 * different request or the first one is still running.
 */
export async function claimIdempotencyKey(workspaceId: string, key: string, requestFingerprint: string): Promise<IdempotencyClaim> {
  const db = getDb();
  const now = new Date();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await db.idempotencyRecord.create({
        data: { workspaceId, key, fingerprint: requestFingerprint, expiresAt: new Date(now.getTime() + REPLAY_WINDOW_MS) },
      });
      return { kind: "claimed", workspaceId, key };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    const existing = await db.idempotencyRecord.findUnique({ where: { workspaceId_key: { workspaceId, key } } });
    if (!existing) continue; // released in between: claim again
    const abandoned = existing.state === "processing" && now.getTime() - existing.createdAt.getTime() > ABANDONED_AFTER_MS;
    if (existing.expiresAt <= now || abandoned) {
      await db.idempotencyRecord.deleteMany({ where: { workspaceId, key, createdAt: existing.createdAt } });
      continue;
    }
    if (existing.fingerprint !== requestFingerprint) {
      throw new AppError("conflict", "This Idempotency-Key was already used for a different request");
    }
    if (existing.state === "processing") {
      // Retry-After tells a client (the SDK) that this conflict passes: the same request, repeated, gets the first one's answer.
      throw new AppError("conflict", "A request with this Idempotency-Key is already being processed; retry later", { "Retry-After": "1" });
    }
    return { kind: "replay", response: { status: existing.responseStatus!, body: existing.responseBody! }, bodyDigest: existing.bodyDigest };
  }
  throw new AppError("conflict", "This Idempotency-Key is contended; retry later", { "Retry-After": "1" });
}

/**
 * Stores the response to replay for the next 24 hours, with the digest of the request's streamed body when it had
 * one: a repeat is compared by it once read, as its type and length alone do not tell two bodies apart.
 */
export async function completeIdempotencyKey(
  claim: { workspaceId: string; key: string },
  response: StoredResponse,
  bodyDigest: string | null = null,
): Promise<void> {
  await getDb().idempotencyRecord.update({
    where: { workspaceId_key: { workspaceId: claim.workspaceId, key: claim.key } },
    data: { state: "completed", responseStatus: response.status, responseBody: response.body, bodyDigest },
  });
}

/** Forgets the key so the client may retry (used when the request failed on our side). */
export async function releaseIdempotencyKey(claim: { workspaceId: string; key: string }): Promise<void> {
  await getDb().idempotencyRecord.deleteMany({ where: { workspaceId: claim.workspaceId, key: claim.key, state: "processing" } });
}

/** Removes expired records; run from a scheduled job. */
export async function purgeExpiredIdempotencyKeys(now = new Date()): Promise<number> {
  const { count } = await getDb().idempotencyRecord.deleteMany({ where: { expiresAt: { lt: now } } });
  return count;
}
