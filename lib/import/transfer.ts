import { createHash } from "node:crypto";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { getDb, sqlOf } from "@/lib/db/client";
import { AppError, isAppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { getConfig } from "@/lib/services";
import type { MediaFormat } from "@/lib/platforms/media-signature";
import { discardStoredFiles, getStorage, uploadStorageKey } from "@/lib/storage";
import { recordUploads } from "@/lib/uploads/accept-uploads";
import { safeFileName } from "@/lib/uploads/file-name";
import { MediaInspector } from "@/lib/uploads/inspect-media-stream";
import { settleRun } from "./runs";
import { sourceFor } from "./sources";

/** Progress is written at most once per this many bytes. */
const PROGRESS_EVERY_BYTES = 16 * 1024 * 1024;

export type TransferOutcome = { status: "imported" | "skipped" | "failed" | "missing"; uploadId?: string | null };

/**
 * Brings one import item in: streams the file from the provider into media storage (type sniffed
 * from its bytes, size limits and format checks of an upload), then records an upload, whose job
 * (started once the run's transfers have all ended) pushes it to the ad account and files the
 * creative exactly as for a file uploaded by hand.
 * Same bytes as an earlier import (sha256) are skipped. Repeatable after a crash at any point:
 * the upload id is fixed before the transfer, and an item already done is answered as it is.
 */
export async function transferImportItem(itemId: string): Promise<TransferOutcome> {
  const db = getDb();
  const item = await db.importItem.findUnique({ where: { id: itemId } });
  if (!item) return { status: "missing" };
  if (item.status !== "queued" && item.status !== "transferring") return { status: item.status, uploadId: item.uploadId };
  const [run, connection] = await Promise.all([
    db.importRun.findUniqueOrThrow({ where: { id: item.runId } }),
    db.storageConnection.findUniqueOrThrow({ where: { id: item.connectionId } }),
  ]);

  const uploadId = item.uploadId ?? newId("upl");
  if (!item.uploadId) await db.importItem.update({ where: { id: item.id }, data: { uploadId, status: "transferring" } });
  // A crash after the upload was recorded (only an item that had its upload id before can get there):
  // the file is in; only the item's own mark is missing.
  else if (await db.upload.findUnique({ where: { id: uploadId }, select: { id: true } })) {
    await db.importItem.update({ where: { id: item.id }, data: { status: "imported", finishedAt: new Date() } });
    return { status: "imported", uploadId };
  }

  const storageKey = uploadStorageKey(item.workspaceId, uploadId);
  const fileName = safeFileName(item.fileName);
  let stored: { sizeBytes: number; contentHash: string; format: MediaFormat };
  try {
    stored = await streamIntoStorage(item.id, fileName, storageKey, await openWithin(sourceFor(connection).open(item.sourceId)));
  } catch (err) {
    if (!isAppError(err)) throw err; // infrastructure: the job's step retries, then its onFailure
    await failItem(item.id, err.message);
    return { status: "failed" };
  }

  // The twin check and the record share one transaction, under a lock on these bytes in this workspace: two
  // files with the same bytes arriving at once (one bucket's two keys, two runs) are taken in turn, so the
  // second finds the first and is skipped.
  const skipped = await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${`adloom.import-bytes:${item.workspaceId}:${stored.contentHash}`}))::text`;
    const twin = await tx.importItem.findFirst({
      where: { workspaceId: item.workspaceId, contentHash: stored.contentHash, status: "imported", id: { not: item.id } },
      select: { fileName: true, runId: true },
    });
    // Bytes already in the library through an upload (creatives record their sha256) count too.
    const twinCreative = twin
      ? null
      : await tx.creative.findFirst({ where: { workspaceId: item.workspaceId, contentSha256: stored.contentHash }, select: { fileName: true, id: true } });
    const done = { contentHash: stored.contentHash, bytesDone: BigInt(stored.sizeBytes), finishedAt: new Date() };
    if (twin || twinCreative) {
      await tx.importItem.update({
        where: { id: item.id },
        data: {
          ...done,
          status: "skipped",
          uploadId: null,
          error: twin
            ? `Same bytes as "${twin.fileName}", imported by run ${twin.runId}`
            : `Same bytes as creative "${twinCreative!.fileName}" (${twinCreative!.id})`,
        },
      });
      // Removed before the skip commits: a crash in between leaves the item to transfer again, not a stray file.
      await discardStoredFiles([storageKey], "import skipped as a duplicate");
      return true;
    }
    // The upload's job starts once the whole run has arrived (lib/import/finish-run.ts): until then it waits "processing".
    const owner = { workspaceId: item.workspaceId, folderId: run.folderId, versionOf: null, createdById: run.createdById, platform: run.platform };
    const { kind, contentType } = stored.format;
    await recordUploads(sqlOf(tx), owner, [{ id: uploadId, fileName, kind, contentType, sizeBytes: stored.sizeBytes, storageKey }]);
    await tx.importItem.update({ where: { id: item.id }, data: { ...done, status: "imported", sizeBytes: BigInt(stored.sizeBytes) } });
    return false;
  });
  return skipped ? { status: "skipped" } : { status: "imported", uploadId };
}

/** The item's job failed for good: it fails (and its run may end). */
export async function failItem(itemId: string, error: string): Promise<void> {
  const { count } = await getDb().importItem.updateMany({
    where: { id: itemId, status: { in: ["queued", "transferring"] } },
    data: { status: "failed", error: error.slice(0, 2000), uploadId: null, finishedAt: new Date() },
  });
  if (count) log.info("import item failed", { component: "import", itemId, error });
}

export async function settleRunOfItem(itemId: string): Promise<void> {
  const item = await getDb().importItem.findUnique({ where: { id: itemId }, select: { runId: true } });
  if (item) await settleRun(item.runId);
}

function stalled(): AppError {
  const seconds = getConfig().storageProviders.downloadIdleTimeoutMs / 1000;
  return new AppError("upstream_error", `The file stopped arriving: the provider sent nothing for ${seconds} seconds`);
}

/** The provider's answer to the download, or a failure once it has kept us waiting for the idle timeout. */
async function openWithin(opening: Promise<{ stream: Readable }>): Promise<{ stream: Readable }> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(stalled()), getConfig().storageProviders.downloadIdleTimeoutMs);
  });
  try {
    return await Promise.race([opening, timedOut]);
  } catch (err) {
    // An answer that comes after all is let go.
    opening.then((file) => file.stream.destroy()).catch(() => undefined);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One pass over the provider's stream: hashed (sha256) and counted as it goes by, sniffed and
 * checked by the upload's MediaInspector, written by media storage. Nothing waits on the progress
 * write (at most one in flight), so a slow database never stalls the bytes. A stream that sends
 * nothing for IMPORT_DOWNLOAD_IDLE_TIMEOUT_MS is stopped, and the item fails (its job's slot is free again).
 */
async function streamIntoStorage(
  itemId: string,
  fileName: string,
  storageKey: string,
  file: { stream: Readable },
): Promise<{ sizeBytes: number; contentHash: string; format: MediaFormat }> {
  const hash = createHash("sha256");
  let bytes = 0;
  let reported = 0;
  let progress: Promise<unknown> | null = null;
  let stoppedIdle: AppError | null = null;
  const idle = setTimeout(() => {
    stoppedIdle = stalled();
    file.stream.destroy(stoppedIdle);
  }, getConfig().storageProviders.downloadIdleTimeoutMs);
  const counter = new Transform({
    transform(chunk: Buffer, _enc, callback) {
      idle.refresh();
      hash.update(chunk);
      bytes += chunk.length;
      if (bytes - reported >= PROGRESS_EVERY_BYTES && !progress) {
        reported = bytes;
        progress = getDb()
          .importItem.update({ where: { id: itemId }, data: { bytesDone: BigInt(bytes) } })
          .catch(() => undefined)
          .finally(() => (progress = null));
      }
      callback(null, chunk);
    },
  });
  const inspector = new MediaInspector(fileName, null, null);
  const sniffed = new Promise<MediaFormat>((resolve) => inspector.once("format", resolve));
  const piping = pipeline(file.stream, counter, inspector);
  try {
    // Media storage wants the content type before the first byte: the leading bytes tell it.
    const format = await Promise.race([sniffed, piping.then(() => sniffed)]);
    // The write finished: every byte went through the counter on its way.
    const { sizeBytes } = await getStorage().put(storageKey, inspector, { contentType: format.contentType });
    await progress;
    return { sizeBytes, contentHash: hash.digest("hex"), format: inspector.format ?? format };
  } catch (err) {
    throw stoppedIdle ?? err;
  } finally {
    clearTimeout(idle);
    piping.catch(() => undefined);
    file.stream.destroy();
  }
}
