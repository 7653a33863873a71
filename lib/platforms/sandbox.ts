import { createHash, randomInt } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { getConfig } from "@/lib/services";
import type { Platform } from "@/lib/generated/prisma/enums";
import { getStorage } from "@/lib/storage";
import { detectMediaFormat, SIGNATURE_BYTES } from "./media-signature";
import { SandboxAdsApi } from "./sandbox-ads/api";
import { PlatformError, type PlatformAdapter, type PushRequest, type PushResult } from "./types";

/**
 * What a file name steers the sandbox into, like a payment sandbox's test cards.
 * Longest prefix first: `sandbox-fail-once` must not read as `sandbox-fail`.
 */
export type SandboxFault = "fail-once" | "fail" | "flaky" | "slow" | null;

export function sandboxFaultOf(fileName: string): SandboxFault {
  const name = fileName.toLowerCase();
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
export class SandboxPlatformAdapter extends SandboxAdsApi implements PlatformAdapter {
  readonly mode = "sandbox" as const;

  constructor(platform: Platform) {
    super(platform);
  }

  async pushMedia(request: PushRequest): Promise<PushResult> {
    const fault = sandboxFaultOf(request.fileName);
    if (fault === "slow") await sleep(getConfig().platforms.sandboxSlowPushMs);
    if (fault === "fail") throw this.transient("rejected the upload (sandbox-fail: every attempt fails)");
    if (fault === "fail-once" && request.jobRun === 1) {
      throw this.transient("rejected the upload (sandbox-fail-once: every attempt of the first job run fails; retry the upload)");
    }
    if (fault === "flaky" && request.attempt === 1) {
      throw new PlatformError("upstream_busy", `${this.platform} is rate limiting media uploads (sandbox-flaky); retry shortly`, { retryable: true });
    }

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

  private transient(message: string): PlatformError {
    return new PlatformError("upstream_error", `${this.platform} ${message}`, { retryable: true });
  }

  private refusedMedia(message: string): PlatformError {
    return new PlatformError("invalid_input", `${this.platform} refused the media: ${message}`, { retryable: false });
  }
}
