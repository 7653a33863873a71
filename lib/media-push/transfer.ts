import { getDb } from "@/lib/db/client";
import type { AdAccount, MediaPush } from "@/lib/generated/prisma/client";
import { sendEvent } from "@/lib/jobs/outbox";
import type { MediaKind } from "@/lib/generated/prisma/enums";
import { log } from "@/lib/log";
import { adapterFor, PlatformError, platformWaitSeconds, type PlatformAdapter } from "@/lib/platforms";
import { storedMediaBytes } from "@/lib/platforms/stored-media";
import type { ChunkedMediaUploads, MediaProcessing } from "@/lib/platforms/types";
import { getConfig } from "@/lib/services";

/** What one transfer attempt came to; plain JSON so a job step can memoize it. */
export type TransferOutcome =
  | { ok: true; state: "processing" | "ready"; externalId: string; pushId: string }
  /** `retryAfterSeconds`: the wait a rate-limiting platform asked for (the job sleeps at least that long). */
  | { ok: false; retryable: boolean; code: string; message: string; retryAfterSeconds?: number }
  /** The push is no longer this run's (a newer run took it over, or it already failed). */
  | { ok: false; stale: true };

export type ProcessingOutcome = { state: "processing" } | { state: "ready"; externalId: string } | { state: "failed"; reason: string } | { state: "stale" };

/** The columns of a push queued for a new job run: no session, no progress, no result (a resend or a retried upload). */
export function requeuedPush(jobRun: number) {
  return {
    jobRun,
    state: "queued" as const,
    sessionId: null,
    chunkSizeBytes: 0,
    chunksTotal: 0,
    chunksDone: 0,
    externalId: null,
    failureReason: null,
    finishedAt: null,
  };
}

/**
 * The job event sent when a chunked push becomes ready after the platform's processing, or any push fails:
 * ad builds waiting for a push that another job runs wake at once instead of at their next check
 * (inngest/functions/ad-build.ts). A one-request push settles within its own request; its waiters check again
 * within a second.
 */
export const MEDIA_PUSH_SETTLED_EVENT = "media/push.settled";

async function announceSettled(pushId: string, state: "ready" | "failed"): Promise<void> {
  try {
    await sendEvent({ name: MEDIA_PUSH_SETTLED_EVENT, data: { pushId, state } });
  } catch (err) {
    // Nothing is lost: a waiting build still checks the push at the end of its wait.
    log.warn("could not announce a settled media push; builds waiting for it see it at their next check", { component: "media-push", pushId, err });
  }
}

/** Videos larger than one chunk go in chunks (MEDIA_CHUNK_BYTES); images and small videos in one request. */
export function isChunked(kind: MediaKind, sizeBytes: number): boolean {
  return kind === "video" && sizeBytes > getConfig().platforms.mediaChunkBytes;
}

/** Waits (seconds) between the job's processing checks: backoff to a minute, ~12 minutes in all. */
export const PROCESSING_POLL_SECONDS = [1, 2, 4, 8, 15, 30, 60, 60, 60, 60, 60, 60, 60, 60, 60];

/**
 * Moves the push as far as one attempt can: a single request for small media (ready at once), or
 * the chunked session: open it once (its id is recorded), send every chunk from the first one not
 * yet acknowledged, recording each acknowledgement before the next, then finish (processing).
 * A crash mid-transfer therefore resends at most the chunk in flight, which the platform
 * acknowledges again without storing it twice. Refusals come back classified, not thrown.
 */
export async function transferOnce(pushId: string, run: { jobRun: number; attempt: number }): Promise<TransferOutcome> {
  const db = getDb();
  const push = await db.mediaPush.findUnique({ where: { id: pushId } });
  if (!push || push.jobRun !== run.jobRun || push.state === "failed") return { ok: false, stale: true };
  if ((push.state === "processing" || push.state === "ready") && push.externalId) return { ok: true, state: push.state, externalId: push.externalId, pushId };
  const account = await db.adAccount.findUnique({ where: { id: push.adAccountId } });
  if (!account) return { ok: false, retryable: false, code: "not_connected", message: "The ad account is no longer connected to this workspace" };
  const api = adapterFor(account);
  try {
    // An adapter without a chunked session API sends large files inside pushMedia (its own chunk loop).
    const sessions = api.chunkedUploads;
    if (!isChunked(push.kind, push.sizeBytes) || !sessions || push.sizeBytes <= (sessions.chunkedAboveBytes ?? 0))
      return await pushInOneRequest(push, account, api, run);
    return await pushInChunks(push, account, sessions, run);
  } catch (err) {
    if (err instanceof PlatformError) {
      const wait = platformWaitSeconds(err);
      return { ok: false, retryable: err.retryable, code: err.code, message: err.message, ...(wait ? { retryAfterSeconds: wait } : {}) };
    }
    log.error("media push failed unexpectedly", { component: "media-push", pushId, err });
    return { ok: false, retryable: true, code: "upstream_error", message: `${push.platform} could not be reached` };
  }
}

async function pushInOneRequest(push: MediaPush, account: AdAccount, api: PlatformAdapter, run: { jobRun: number; attempt: number }): Promise<TransferOutcome> {
  const db = getDb();
  await db.mediaPush.updateMany({ where: { id: push.id, jobRun: run.jobRun, state: "queued" }, data: { state: "transferring" } });
  const { externalId } = await api.pushMedia({
    account,
    uploadId: push.uploadId ?? push.id,
    fileName: push.fileName,
    kind: push.kind,
    contentType: push.contentType,
    sizeBytes: push.sizeBytes,
    storageKey: push.storageKey,
    jobRun: run.jobRun,
    attempt: run.attempt,
  });
  await db.mediaPush.updateMany({
    where: { id: push.id, jobRun: run.jobRun, state: { in: ["queued", "transferring"] } },
    data: { state: "ready", externalId, finishedAt: new Date() },
  });
  // Two callers at once: the first recorded id is the push's id.
  const saved = await db.mediaPush.findUniqueOrThrow({ where: { id: push.id } });
  return { ok: true, state: "ready", externalId: saved.externalId ?? externalId, pushId: push.id };
}

async function pushInChunks(push: MediaPush, account: AdAccount, api: ChunkedMediaUploads, run: { jobRun: number; attempt: number }): Promise<TransferOutcome> {
  const db = getDb();
  let row = push;
  if (!row.sessionId) {
    const chunkSize = getConfig().platforms.mediaChunkBytes;
    const { sessionId } = await api.startMediaUpload({
      account,
      fileName: row.fileName,
      kind: row.kind,
      contentType: row.contentType,
      sizeBytes: row.sizeBytes,
      ...run,
    });
    await db.mediaPush.updateMany({
      where: { id: row.id, jobRun: run.jobRun, sessionId: null },
      data: { sessionId, chunkSizeBytes: chunkSize, chunksTotal: Math.ceil(row.sizeBytes / chunkSize), chunksDone: 0, state: "transferring" },
    });
    row = await db.mediaPush.findUniqueOrThrow({ where: { id: row.id } });
  }
  const sessionId = row.sessionId!;
  for (let chunk = row.chunksDone; chunk < row.chunksTotal; chunk++) {
    const offset = chunk * row.chunkSizeBytes;
    const end = Math.min(row.sizeBytes, offset + row.chunkSizeBytes);
    const bytes = await storedMediaBytes(row.storageKey, { start: offset, end });
    const { nextOffset } = await api.uploadChunk({ account, sessionId, offset, bytes });
    if (nextOffset < end) {
      throw new PlatformError("upstream_error", `${row.platform} acknowledged ${nextOffset} bytes after the chunk ending at ${end}`, { retryable: true });
    }
    await db.mediaPush.updateMany({ where: { id: row.id, jobRun: run.jobRun, chunksDone: chunk }, data: { chunksDone: chunk + 1 } });
  }
  const { externalId } = await api.finishMediaUpload({ account, sessionId, fileName: row.fileName, kind: row.kind, uploadId: row.uploadId ?? row.id });
  await db.mediaPush.updateMany({ where: { id: row.id, jobRun: run.jobRun, state: "transferring" }, data: { state: "processing", externalId } });
  return { ok: true, state: "processing", externalId, pushId: row.id };
}

/** Asks the platform whether it finished processing the pushed media; records ready or failed (with the platform's reason). */
export async function checkProcessing(pushId: string, jobRun: number): Promise<ProcessingOutcome> {
  const db = getDb();
  const push = await db.mediaPush.findUnique({ where: { id: pushId } });
  if (!push || push.jobRun !== jobRun || push.state === "failed") return { state: "stale" };
  if (push.state === "ready" && push.externalId) return { state: "ready", externalId: push.externalId };
  if (!push.externalId) return { state: "stale" };
  const account = await db.adAccount.findUnique({ where: { id: push.adAccountId } });
  if (!account) return { state: "failed", reason: "The ad account is no longer connected to this workspace" };
  let status: MediaProcessing;
  try {
    const chunked = adapterFor(account).chunkedUploads;
    // Without a session API the push waited for processing itself: what it recorded is ready.
    status = chunked ? await chunked.mediaStatus(account, { externalId: push.externalId, kind: push.kind }) : { state: "ready" };
  } catch (err) {
    if (err instanceof PlatformError && !err.retryable) return { state: "failed", reason: err.message };
    return { state: "processing" }; // a transient error: ask again after the next wait
  }
  if (status.state === "ready") {
    const { count } = await db.mediaPush.updateMany({ where: { id: push.id, jobRun, state: "processing" }, data: { state: "ready", finishedAt: new Date() } });
    if (count) await announceSettled(push.id, "ready");
    return { state: "ready", externalId: push.externalId };
  }
  if (status.state === "failed") return { state: "failed", reason: status.reason };
  return { state: "processing" };
}

/** Records the push as failed with the reason (only while this run owns it and it is neither ready nor failed already: the first reason stays). */
export async function failPush(pushId: string, jobRun: number, reason: string): Promise<void> {
  const { count } = await getDb().mediaPush.updateMany({
    where: { id: pushId, jobRun, state: { notIn: ["ready", "failed"] } },
    data: { state: "failed", failureReason: reason.slice(0, 2000), finishedAt: new Date() },
  });
  if (count) await announceSettled(pushId, "failed");
}
