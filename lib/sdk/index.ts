// The Adloom client library. Free of server code: it needs only fetch (Node 20+, browsers,
// edge runtimes); uploading from a path and the webhook verifier use Node built-ins.
export { Adloom, type CreateUploadsOptions, type ListOptions, type WaitOptions, type WriteOptions } from "./client";
export { AdloomError, type AdloomErrorCode, KNOWN_ERROR_CODES } from "./errors";
export type { FileInput, UploadProgress } from "./multipart";
export type { ClientOptions } from "./transport";
export type * from "./types";
export {
  DEFAULT_TOLERANCE_SECONDS,
  parseSignatureHeader,
  verifyWebhook,
  WebhookVerificationError,
  type VerifiedWebhookEvent,
  type VerifyWebhookInput,
  type WebhookVerificationCode,
} from "../webhooks/verify";
