import { createHash, randomInt } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { getConfig } from "@/lib/services";
import type { Platform } from "@/lib/generated/prisma/enums";
import { getStorage } from "@/lib/storage";
import { detectMediaFormat, SIGNATURE_BYTES } from "./media-signature";
import { SandboxAdsApi } from "./sandbox-ads/api";
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
} from "./types";
import { getDb } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import type { MediaKind } from "@/lib/generated/prisma/enums";

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
  const object = await getStorage().read(storageKey);
  if (!object) throw new PlatformError("invalid_input", "The file to push is no longer in media storage", { retryable: false });
  const md5 = createHash("md5");
  let sizeBytes = 0;
  let head = Buffer.alloc(0);
  for await (const chunk of object.stream as AsyncIterable<Buffer>) {
    md5.update(chunk);
    sizeBytes += chunk.length;
    if (head.length < SIGNATURE_BYTES) head = Buffer.concat([head, chunk.subarray(0, SIGNATURE_BYTES - head.length)]);
  }
  return { md5: md5.digest("hex"), sizeBytes, head };
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
    await getDb().sandboxMediaSession.create({
      data: {
        id,
        workspaceId: request.account.workspaceId,
        accountExternalId: request.account.externalAccountId,
        platform: this.platform,
        fileName: request.fileName,
        kind: request.kind,
        fileSize: request.sizeBytes,
        externalId: numericId(this.platform === "platform_a" ? 15 : 19),
      },
    });
    return { sessionId: id };
  }

  /** Accepts the chunk at the offset it expects next; a chunk it already has is acknowledged again (and counted), never stored twice. */
  async uploadChunk(chunk: MediaChunk): Promise<MediaChunkResult> {
    const db = getDb();
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
      const { count } = await db.sandboxMediaSession.updateMany({
        where: { id: session.id, receivedBytes: chunk.offset },
        data: {
          receivedBytes: end,
          chunksAccepted: { increment: 1 },
          ...(chunk.offset === 0 ? { headBase64: chunk.bytes.subarray(0, SIGNATURE_BYTES).toString("base64") } : {}),
        },
      });
      if (count) return { nextOffset: end };
    }
    const repeated = await db.sandboxMediaSession.update({ where: { id: session.id }, data: { chunksRepeated: { increment: 1 } } });
    return { nextOffset: repeated.receivedBytes };
  }

  async finishMediaUpload(request: MediaUploadFinish): Promise<PushResult> {
    const session = await this.session(request.account, request.sessionId);
    if (session.receivedBytes !== session.fileSize) {
      throw this.transient(`received ${session.receivedBytes} of ${session.fileSize} bytes; the transfer was incomplete`);
    }
    const media = detectMediaFormat(Buffer.from(session.headBase64, "base64"));
    if (!media) throw this.refusedMedia(`"${session.fileName}" is not an image or video format the platform accepts`);
    if (media.kind !== session.kind) throw this.refusedMedia(`"${session.fileName}" was sent as ${session.kind} but its bytes are ${media.contentType}`);
    if (!session.finishedAt) await getDb().sandboxMediaSession.updateMany({ where: { id: session.id, finishedAt: null }, data: { finishedAt: new Date() } });
    return { externalId: session.externalId };
  }

  /** Media from a chunked session is processed for SANDBOX_PROCESSING_MS after finishing (`sandbox-unprocessable*` files fail); the rest is ready at once. */
  async mediaStatus(account: AdAccountRef, media: { externalId: string; kind: MediaKind }): Promise<MediaProcessing> {
    const session = await getDb().sandboxMediaSession.findFirst({
      where: { externalId: media.externalId, accountExternalId: account.externalAccountId, platform: this.platform },
    });
    if (!session) return { state: "ready" };
    if (!session.finishedAt || Date.now() - session.finishedAt.getTime() < SANDBOX_PROCESSING_MS) return { state: "processing" };
    if (sandboxFaultOf(session.fileName) === "unprocessable") {
      return { state: "failed", reason: `${this.platform} could not process the video: its encoding is not supported (sandbox-unprocessable)` };
    }
    return { state: "ready" };
  }

  private async session(account: AdAccountRef, sessionId: string) {
    const session = await getDb().sandboxMediaSession.findUnique({ where: { id: sessionId } });
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
  const sessions = await getDb().sandboxMediaSession.findMany({ where: { workspaceId }, orderBy: { createdAt: "asc" } });
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
