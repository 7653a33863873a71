import { randomInt } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { getConfig } from "@/lib/services";
import type { Platform } from "@/lib/generated/prisma/enums";
import { getStorage } from "@/lib/storage";
import { detectMediaFormat, SIGNATURE_BYTES } from "../media-signature";
import { SandboxAdsApi } from "./ads-api";
import {
  PlatformError,
  type AdAccountRef,
  type MediaChunk,
  type MediaChunkResult,
  type MediaProcessing,
  type MediaUploadFinish,
  type MediaUploadSession,
  type ChunkedMediaUploads,
  type MediaUploadStart,
  type PlatformAdapter,
  type PushRequest,
  type PushResult,
} from "../types";
import { newId } from "@/lib/ids";
import type { MediaKind } from "@/lib/generated/prisma/enums";
import { execute, row, rows, TABLE, ts } from "./store";

interface MediaSessionRow {
  id: string;
  workspaceId: string;
  accountExternalId: string;
  platform: Platform;
  fileName: string;
  kind: MediaKind;
  fileSize: number;
  receivedBytes: number;
  headBase64: string;
  chunksAccepted: number;
  chunksRepeated: number;
  externalId: string;
  finishedAt: Date | null;
}
const SESSION_COLUMNS = `id, "workspaceId", "accountExternalId", platform, "fileName", kind, "fileSize", "receivedBytes", "headBase64", "chunksAccepted", "chunksRepeated", "externalId", "finishedAt"`;

/** How long the sandbox "processes" a video after a chunked upload finishes. */
export const SANDBOX_PROCESSING_MS = 2000;

/**
 * What a file name steers the sandbox into, like a payment sandbox's test cards.
 * Longest prefix first: `sandbox-fail-once` must not read as `sandbox-fail`.
 */
export type SandboxFault = "fail-once" | "fail" | "flaky" | "slow" | "unprocessable" | null;

export function sandboxFaultOf(fileName: string): SandboxFault {
  const name = fileName.toLowerCase();
  if (name.startsWith("sandbox-unprocessable")) return "unprocessable";
  if (name.startsWith("sandbox-fail-once")) return "fail-once";
  if (name.startsWith("sandbox-fail")) return "fail";
  if (name.startsWith("sandbox-flaky")) return "flaky";
  if (name.startsWith("sandbox-slow")) return "slow";
  return null;
}

/** A numeric-string id like the platforms' video and image ids (no leading zero). */
function numericId(digits: number): string {
  let id = String(randomInt(1, 10));
  while (id.length < digits) id += String(randomInt(0, 10));
  return id;
}

interface ReceivedFile {
  md5: string;
  sizeBytes: number;
  head: Buffer;
}

/** Reads the stored file the way the platform would receive it: every byte, hashed, head kept for validation. */
async function receive(storageKey: string): Promise<ReceivedFile> {
  const file = await getStorage().digest(storageKey, "md5", { headBytes: SIGNATURE_BYTES });
  if (!file) throw new PlatformError("invalid_input", "The file to push is no longer in media storage", { retryable: false });
  return { md5: file.digest, sizeBytes: file.sizeBytes, head: file.head };
}

/**
 * The offline stand-in for a platform's media upload API. It validates what it
 * receives (the bytes must be the declared kind of media, complete and non-empty),
 * answers with ids in the real formats (platform_a: the image's MD5 as its 32-hex hash,
 * numeric video ids; platform_b: numeric ids) and classifies its errors as the real
 * APIs do: retryable (busy, transient) or terminal (invalid media).
 */
export class SandboxPlatformAdapter extends SandboxAdsApi implements PlatformAdapter, ChunkedMediaUploads {
  readonly chunkedUploads: ChunkedMediaUploads = this;

  readonly mode = "sandbox" as const;

  constructor(platform: Platform) {
    super(platform);
  }

  /** The faults a file name steers an upload attempt into (a single push, or opening a chunked session). */
  private steer(request: { fileName: string; jobRun: number; attempt: number }): void {
    const fault = sandboxFaultOf(request.fileName);
    if (fault === "fail") throw this.transient("rejected the upload (sandbox-fail: every attempt fails)");
    if (fault === "fail-once" && request.jobRun === 1) {
      throw this.transient("rejected the upload (sandbox-fail-once: every attempt of the first job run fails; retry the upload)");
    }
    if (fault === "flaky" && request.attempt === 1) {
      throw new PlatformError("upstream_busy", `${this.platform} is rate limiting media uploads (sandbox-flaky); retry shortly`, { retryable: true });
    }
  }

  async pushMedia(request: PushRequest): Promise<PushResult> {
    if (sandboxFaultOf(request.fileName) === "slow") await sleep(getConfig().platforms.sandboxSlowPushMs);
    this.steer(request);

    const file = await receive(request.storageKey);
    if (file.sizeBytes === 0) throw this.refusedMedia("the file is empty");
    if (file.sizeBytes !== request.sizeBytes) {
      throw this.transient(`received ${file.sizeBytes} of ${request.sizeBytes} bytes; the transfer was incomplete`);
    }
    const media = detectMediaFormat(file.head);
    if (!media) throw this.refusedMedia(`"${request.fileName}" is not an image or video format the platform accepts`);
    if (media.kind !== request.kind) throw this.refusedMedia(`"${request.fileName}" was sent as ${request.kind} but its bytes are ${media.contentType}`);

    if (this.platform === "platform_a" && request.kind === "image") return { externalId: file.md5 };
    return { externalId: numericId(this.platform === "platform_a" ? 15 : 19) };
  }

  async startMediaUpload(request: MediaUploadStart): Promise<MediaUploadSession> {
    this.steer(request);
    const id = newId("sbxup");
    await execute(
      `INSERT INTO ${TABLE.mediaSessions} (id, "workspaceId", "accountExternalId", platform, "fileName", kind, "fileSize", "externalId")
       VALUES ($1, $2, $3, $4, $5, $6, $7::int, $8)`,
      id,
      request.account.workspaceId,
      request.account.externalAccountId,
      this.platform,
      request.fileName,
      request.kind,
      request.sizeBytes,
      numericId(this.platform === "platform_a" ? 15 : 19),
    );
    return { sessionId: id };
  }

  /** Accepts the chunk at the offset it expects next; a chunk it already has is acknowledged again (and counted), never stored twice. */
  async uploadChunk(chunk: MediaChunk): Promise<MediaChunkResult> {
    const session = await this.session(chunk.account, chunk.sessionId);
    if (sandboxFaultOf(session.fileName) === "slow") await sleep(getConfig().platforms.sandboxSlowPushMs);
    const end = chunk.offset + chunk.bytes.length;
    if (chunk.bytes.length === 0 || end > session.fileSize) {
      throw this.refusedMedia(`chunk ${chunk.offset}-${end} lies outside the ${session.fileSize}-byte file`);
    }
    if (chunk.offset > session.receivedBytes) {
      throw new PlatformError("invalid_input", `${this.platform} expected the chunk at offset ${session.receivedBytes}, got ${chunk.offset}`, {
        retryable: false,
      });
    }
    if (chunk.offset === session.receivedBytes && !session.finishedAt) {
      const count = await execute(
        `UPDATE ${TABLE.mediaSessions} SET "receivedBytes" = $3::int, "chunksAccepted" = "chunksAccepted" + 1, "headBase64" = COALESCE($4::text, "headBase64")
          WHERE id = $1 AND "receivedBytes" = $2::int`,
        session.id,
        chunk.offset,
        end,
        chunk.offset === 0 ? chunk.bytes.subarray(0, SIGNATURE_BYTES).toString("base64") : null,
      );
      if (count) return { nextOffset: end };
    }
    const repeated = await row<{ receivedBytes: number }>(
      `UPDATE ${TABLE.mediaSessions} SET "chunksRepeated" = "chunksRepeated" + 1 WHERE id = $1 RETURNING "receivedBytes"`,
      session.id,
    );
    return { nextOffset: repeated?.receivedBytes ?? session.receivedBytes };
  }

  async finishMediaUpload(request: MediaUploadFinish): Promise<PushResult> {
    const session = await this.session(request.account, request.sessionId);
    if (session.receivedBytes !== session.fileSize) {
      throw this.transient(`received ${session.receivedBytes} of ${session.fileSize} bytes; the transfer was incomplete`);
    }
    const media = detectMediaFormat(Buffer.from(session.headBase64, "base64"));
    if (!media) throw this.refusedMedia(`"${session.fileName}" is not an image or video format the platform accepts`);
    if (media.kind !== session.kind) throw this.refusedMedia(`"${session.fileName}" was sent as ${session.kind} but its bytes are ${media.contentType}`);
    if (!session.finishedAt) {
      await execute(`UPDATE ${TABLE.mediaSessions} SET "finishedAt" = $2::timestamp(3) WHERE id = $1 AND "finishedAt" IS NULL`, session.id, ts(new Date()));
    }
    return { externalId: session.externalId };
  }

  /** Media from a chunked session is processed for SANDBOX_PROCESSING_MS after finishing (`sandbox-unprocessable*` files fail); the rest is ready at once. */
  async mediaStatus(account: AdAccountRef, media: { externalId: string; kind: MediaKind }): Promise<MediaProcessing> {
    const session = await row<MediaSessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM ${TABLE.mediaSessions} WHERE "externalId" = $1 AND "accountExternalId" = $2 AND platform = $3 LIMIT 1`,
      media.externalId,
      account.externalAccountId,
      this.platform,
    );
    if (!session) return { state: "ready" };
    if (!session.finishedAt || Date.now() - session.finishedAt.getTime() < SANDBOX_PROCESSING_MS) return { state: "processing" };
    if (sandboxFaultOf(session.fileName) === "unprocessable") {
      return { state: "failed", reason: `${this.platform} could not process the video: its encoding is not supported (sandbox-unprocessable)` };
    }
    return { state: "ready" };
  }

  private async session(account: AdAccountRef, sessionId: string) {
    const session = await row<MediaSessionRow>(`SELECT ${SESSION_COLUMNS} FROM ${TABLE.mediaSessions} WHERE id = $1`, sessionId);
    if (!session || session.accountExternalId !== account.externalAccountId || session.platform !== this.platform) {
      throw new PlatformError("invalid_input", `${this.platform} has no upload session ${sessionId} on this ad account`, { retryable: false });
    }
    return session;
  }

  private transient(message: string): PlatformError {
    return new PlatformError("upstream_error", `${this.platform} ${message}`, { retryable: true });
  }

  private refusedMedia(message: string): PlatformError {
    return new PlatformError("invalid_input", `${this.platform} refused the media: ${message}`, { retryable: false });
  }
}

/** What the sandbox received in the workspace's chunked media uploads (`sandbox media`): per session, the chunks it accepted and the ones sent again. */
export async function sandboxMediaSessionsOf(workspaceId: string) {
  const sessions = await rows<MediaSessionRow>(
    `SELECT ${SESSION_COLUMNS} FROM ${TABLE.mediaSessions} WHERE "workspaceId" = $1 ORDER BY "createdAt", id`,
    workspaceId,
  );
  return {
    sessions: sessions.map((s) => ({
      sessionId: s.id,
      platform: s.platform,
      accountId: s.accountExternalId,
      fileName: s.fileName,
      fileSize: s.fileSize,
      receivedBytes: s.receivedBytes,
      chunksAccepted: s.chunksAccepted,
      chunksRepeated: s.chunksRepeated,
      videoId: s.externalId,
      finished: s.finishedAt !== null,
    })),
  };
}
