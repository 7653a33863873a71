import type { MediaKind, Platform } from "@/lib/generated/prisma/enums";
import { AppError } from "@/lib/errors";
import type { AdsApi } from "./ads-types";

export type { MediaKind, Platform };

/** The workspace's ad account the adapter pushes into. */
export interface AdAccountRef {
  id: string;
  workspaceId: string;
  platform: Platform;
  mode: "sandbox" | "live";
  externalAccountId: string;
}

/** One push of one stored file into an ad account's media library. Carries a storage key, never bytes. */
export interface PushRequest {
  account: AdAccountRef;
  uploadId: string;
  fileName: string;
  kind: MediaKind;
  contentType: string;
  sizeBytes: number;
  storageKey: string;
  /** Which job run of the upload this is (1 for the first, +1 per retry of a failed upload). */
  jobRun: number;
  /** Attempt within the job run, 1-based. */
  attempt: number;
}

/** The platform's id for the pushed media: an image hash (platform_a images) or a numeric id. */
export interface PushResult {
  externalId: string;
}

export type PlatformErrorCode = "upstream_error" | "upstream_busy" | "invalid_input" | "not_connected";

/**
 * A platform's refusal, classified: `retryable` ones (timeouts, 5xx, rate limits) are worth
 * another attempt after a wait; the rest fail identically until the caller fixes something.
 */
export class PlatformError extends AppError {
  readonly retryable: boolean;

  constructor(code: PlatformErrorCode, message: string, options: { retryable: boolean; retryAfterSeconds?: number }) {
    super(code, message, options.retryAfterSeconds ? { "Retry-After": String(options.retryAfterSeconds) } : {});
    this.name = "PlatformError";
    this.retryable = options.retryable;
  }
}

/** One ad platform's API: media upload and the ads API (./ads-types.ts). An adapter per platform and mode (sandbox, live). */
export interface PlatformAdapter extends AdsApi {
  readonly platform: Platform;
  readonly mode: "sandbox" | "live";
  /** Pushes the stored file into the account's media library; throws PlatformError on refusal. */
  pushMedia(request: PushRequest): Promise<PushResult>;
}
