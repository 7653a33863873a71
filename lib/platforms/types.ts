import type { AdAccountStatus, MediaKind, Platform } from "@/lib/generated/prisma/enums";
import { AppError } from "@/lib/errors";
import type { AdsApi } from "./ads-types";

export type { AdAccountStatus, MediaKind, Platform };

/**
 * One of the workspace's ad account connections: what every adapter call names. The adapter is
 * chosen per account (`mode`), and a live adapter reads the account's sealed credentials by `id`
 * (lib/platforms/live/credentials.ts), so the reference itself never carries a token.
 */
export interface AdAccountRef {
  id: string;
  workspaceId: string;
  platform: Platform;
  mode: "sandbox" | "live";
  externalAccountId: string;
  /** Calls on an account that is not `active` answer `not_connected` without reaching the platform. */
  status: AdAccountStatus;
  /** Why the account left `active` (the platform's refusal), when it did. */
  statusReason?: string | null;
}

/** A live account's credentials once opened (lib/credentials): what the platform's calls authenticate with. */
export interface AccountCredentials {
  accessToken: string;
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

/**
 * A resumable (chunked) media upload, as Meta's video upload (`upload_phase` start / transfer /
 * finish) and TikTok's chunked video upload work. `startMediaUpload` opens a session for the whole
 * file; `uploadChunk` sends the bytes at `offset` and is idempotent: a chunk the platform already
 * has is acknowledged again, not stored twice; `finishMediaUpload` closes the session and answers
 * the media id; `mediaStatus` then says whether the platform finished processing it.
 */
export interface MediaUploadStart {
  account: AdAccountRef;
  fileName: string;
  kind: MediaKind;
  contentType: string;
  sizeBytes: number;
  /** As in PushRequest: which job run and attempt open the session (fault steering, logs). */
  jobRun: number;
  attempt: number;
}

export interface MediaUploadSession {
  /** The platform's upload session id (Meta's upload_session_id, TikTok's upload_id). */
  sessionId: string;
}

export interface MediaChunk {
  account: AdAccountRef;
  sessionId: string;
  /** Byte offset of the chunk's first byte in the file. */
  offset: number;
  bytes: Buffer;
}

export interface MediaChunkResult {
  /** The offset the platform expects next (the file's size once every byte arrived). */
  nextOffset: number;
}

export interface MediaUploadFinish {
  account: AdAccountRef;
  sessionId: string;
  fileName: string;
  kind: MediaKind;
  /** The upload the push belongs to; a platform may name the media after it (Meta's video title) so a later attempt can find it. */
  uploadId?: string;
}

/** A resumable (chunked) upload session API; see MediaUploadStart. */
export interface ChunkedMediaUploads {
  /** The platform opens sessions only for files larger than this (TikTok: 20 MB at least); smaller ones go in one request. */
  readonly chunkedAboveBytes?: number;
  /** Opens a session for the whole file. */
  startMediaUpload(request: MediaUploadStart): Promise<MediaUploadSession>;
  /** Sends one chunk; idempotent per offset. */
  uploadChunk(chunk: MediaChunk): Promise<MediaChunkResult>;
  /** Closes the session once every byte arrived; answers the media id (processing may still be running). */
  finishMediaUpload(request: MediaUploadFinish): Promise<PushResult>;
  /** Whether the platform finished processing the media (videos); images are ready at once. */
  mediaStatus(account: AdAccountRef, media: { externalId: string; kind: MediaKind }): Promise<MediaProcessing>;
}

/** The platform's processing of pushed media: usable, still processing, or refused with its reason. */
export type MediaProcessing = { state: "processing" } | { state: "ready" } | { state: "failed"; reason: string };

export type PlatformErrorCode = "upstream_error" | "upstream_busy" | "invalid_input" | "not_connected";

/**
 * A platform's refusal, classified: `retryable` ones (timeouts, 5xx, rate limits) are worth
 * another attempt after a wait; the rest fail identically until the caller fixes something.
 */
export class PlatformError extends AppError {
  readonly retryable: boolean;
  /** The platform refused the account's credentials (expired or revoked token): the account needs reconnecting. */
  readonly authRefused: boolean;
  /** The wait the platform asked for before the next call (rate limits), in seconds; null when it said none. */
  readonly retryAfterSeconds: number | null;

  constructor(code: PlatformErrorCode, message: string, options: { retryable: boolean; retryAfterSeconds?: number; authRefused?: boolean }) {
    super(code, message, options.retryAfterSeconds ? { "Retry-After": String(options.retryAfterSeconds) } : {});
    this.name = "PlatformError";
    this.retryable = options.retryable;
    this.authRefused = options.authRefused ?? false;
    this.retryAfterSeconds = options.retryAfterSeconds ? Math.ceil(options.retryAfterSeconds) : null;
  }
}

/**
 * The wait a rate-limited platform asked for (`upstream_busy` with a Retry-After), in seconds, or null
 * for any other error: what the jobs sleep (durably) before calling that platform again.
 */
export function platformWaitSeconds(err: unknown): number | null {
  if (!(err instanceof PlatformError) || err.code !== "upstream_busy") return null;
  return err.retryAfterSeconds ?? 1;
}

/** One ad platform's API: media upload and the ads API (./ads-types.ts). An adapter per platform and mode (sandbox, live), chosen per account. */
export interface PlatformAdapter extends AdsApi {
  readonly platform: Platform;
  readonly mode: "sandbox" | "live";
  /** Pushes the stored file into the account's media library in one request (images, small videos); throws PlatformError on refusal. */
  pushMedia(request: PushRequest): Promise<PushResult>;
  /**
   * The platform's resumable upload, driven chunk by chunk by lib/media-push, which records each
   * acknowledged chunk (the sandbox and platform_a live have it). An adapter without it sends a large video inside
   * `pushMedia` with its own chunk loop and waits for processing there (platform_b live, for now).
   */
  readonly chunkedUploads?: ChunkedMediaUploads;
}
