import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey, type StoredResponse } from "./store";

export interface IdempotentRequest {
  workspaceId: string;
  key: string;
  /** What makes two requests "the same" (see `fingerprint`). */
  fingerprint: string;
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
 * status says the client may retry (5xx, 409, 429), and a thrown error releases the key.
 */
export async function runIdempotently<T>(
  request: IdempotentRequest,
  produce: () => Promise<T>,
  answerOf: (value: T) => StoredResponse | Promise<StoredResponse>,
): Promise<IdempotentOutcome<T>> {
  const claim = await claimIdempotencyKey(request.workspaceId, request.key, request.fingerprint);
  if (claim.kind === "replay") return { replayed: true, response: claim.response };
  let value: T;
  try {
    value = await produce();
  } catch (err) {
    await releaseIdempotencyKey(claim);
    throw err;
  }
  const answer = await answerOf(value);
  if (isRetryable(answer.status)) await releaseIdempotencyKey(claim);
  else await completeIdempotencyKey(claim, answer);
  return { replayed: false, value };
}
