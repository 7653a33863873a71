import { AppError } from "@/lib/errors";
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey, type StoredResponse } from "./store";

export interface IdempotentRequest {
  workspaceId: string;
  key: string;
  /** What makes two requests "the same" (see `fingerprint`); for a streamed body, its type and length. */
  fingerprint: string;
  /** A body streamed to `produce`, which the fingerprint cannot include: compared by its digest once read. */
  streamedBody?: StreamedBodyDigests;
}

export interface StreamedBodyDigests {
  /** After `produce`: the digest of the body it read, or null when it did not read the body to its end (the answer then is not kept). */
  ofRun: () => string | null;
  /** Reads a repeat's body (it was not handed to `produce`) to its end and digests it the same way. */
  ofRepeat: () => Promise<string>;
}

export type IdempotentOutcome<T> = { replayed: false; value: T } | { replayed: true; response: StoredResponse };

/** Failures the caller should be free to retry with the same key are not kept. */
function isRetryable(status: number): boolean {
  return status >= 500 || status === 409 || status === 429;
}

/**
 * Runs `produce` at most once per workspace and key. A repeat of the same request gets the first
 * answer back (`replayed`); a different request with the key, or one arriving while the first is
 * still running, is refused with 409 `conflict`. Every surface (REST routes, tool calls) goes
 * through here, so the settlement rule is written once: answers are kept for replay unless their
 * status says the client may retry (5xx, 409, 429), and a thrown error releases the key. A streamed
 * body is read by `produce`; its answer is kept only when the body was read to its end, and a repeat
 * is replayed only when its body has the same digest.
 */
export async function runIdempotently<T>(
  request: IdempotentRequest,
  produce: () => Promise<T>,
  answerOf: (value: T) => StoredResponse | Promise<StoredResponse>,
): Promise<IdempotentOutcome<T>> {
  const claim = await claimIdempotencyKey(request.workspaceId, request.key, request.fingerprint);
  if (claim.kind === "replay") {
    if (request.streamedBody && claim.bodyDigest !== null && (await request.streamedBody.ofRepeat()) !== claim.bodyDigest) {
      throw new AppError("conflict", "This Idempotency-Key was already used for a different request");
    }
    return { replayed: true, response: claim.response };
  }
  let value: T;
  try {
    value = await produce();
  } catch (err) {
    await releaseIdempotencyKey(claim);
    throw err;
  }
  const answer = await answerOf(value);
  const bodyDigest = request.streamedBody ? request.streamedBody.ofRun() : null;
  // A streamed body cut short (a dropped connection, a client too slow) answered something else than this request.
  if (isRetryable(answer.status) || (request.streamedBody && bodyDigest === null)) await releaseIdempotencyKey(claim);
  else await completeIdempotencyKey(claim, answer, bodyDigest);
  return { replayed: false, value };
}
