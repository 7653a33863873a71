// The Adloom client library. No runtime dependencies: fetch, Web streams and Web Crypto
// (resumable uploads load the optional peer tus-js-client on demand),
// so it runs on Node 20+, Deno, Bun, browsers and edge runtimes (uploading from a file
// path loads node:fs on demand).
export {
  Adloom,
  type CreateUploadsOptions,
  type ListOptions,
  type ToolCallArgs,
  type ToolCallResult,
  type ToolInput,
  type ToolName,
  type ToolOutput,
  type WaitOptions,
  type WriteOptions,
} from "./client.js";
export { type StreamedEvent, type StreamOptions, parseEventStream } from "./events.js";
export { AdloomError, type AdloomErrorCode, KNOWN_ERROR_CODES } from "./errors.js";
export { ERROR_STATUS, type ApiErrorCode } from "./generated/errors.js";
export { TOOL_NAMES, type ToolTypes } from "./generated/tools.js";
export type * from "./generated/schemas.js";
export type { FileInput, UploadProgress } from "./multipart.js";
export { RESUMABLE_THRESHOLD_BYTES, type ResumableUploadOptions, type TusClientModule } from "./resumable.js";
export type { ClientOptions } from "./transport.js";
export type { CopyFields, CopyVariant, DeliveryFilters, JsonSchema, Page, Platform } from "./types.js";
export {
  DEFAULT_TOLERANCE_SECONDS,
  parseSignatureHeader,
  verifyWebhook,
  WebhookVerificationError,
  type VerifiedWebhookEvent,
  type VerifyWebhookInput,
  type WebhookVerificationCode,
} from "./webhooks.js";
