export { fingerprint, IDEMPOTENCY_KEY_MAX_LENGTH, purgeExpiredIdempotencyKeys, validateIdempotencyKey, type StoredResponse } from "./store";
export { runIdempotently, type IdempotentOutcome, type IdempotentRequest, type StreamedBodyDigests } from "./run";
