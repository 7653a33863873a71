import { createHash } from "node:crypto";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { getDb } from "@/lib/db/client";
import { AppError, isAppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { detectMediaFormat, SIGNATURE_BYTES, type MediaFormat } from "@/lib/platforms/media-signature";
import { discardStoredFiles, getStorage, uploadStorageKey } from "@/lib/storage";
import { startUploadJobs } from "@/lib/uploads/accept-uploads";
import { safeFileName } from "@/lib/uploads/file-name";
import { MediaInspector } from "@/lib/uploads/inspect-media-stream";
import { differenceHash, hammingDistance, hasStructure, NEAR_DUPLICATE_BITS } from "./perceptual-hash";
import { settleRun } from "./runs";
import { sourceFor } from "./sources";

/** Progress is written at most once per this many bytes. */
const PROGRESS_EVERY_BYTES = 16 * 1024 * 1024;

export type TransferOutcome = { status: "imported" | "skipped" | "failed" | "missing"; uploadId?: string | null };

/**
 * Brings one import item in: streams the file from the provider into media storage (type sniffed
 * from its bytes, size limits and format checks of an upload), then records an upload, whose job
 * pushes it to the ad account and files the creative exactly as for a file uploaded by hand.
 * Same bytes as an earlier import (sha256) are skipped. Repeatable after a crash at any point:
 * the upload id is fixed before the transfer, and an item already done is answered as it is.
 */
export async function transferImportItem(itemId: string): Promise<TransferOutcome> {
  const db = getDb();
  const item = await db.importItem.findUnique({ where: { id: itemId } });
  if (!item) return { status: "missing" };
  if (item.status !== "queued" && item.status !== "transferring") return { status: item.status, uploadId: item.uploadId };
  const run = await db.importRun.findUniqueOrThrow({ where: { id: item.runId } });
  const connection = await db.storageConnection.findUniqueOrThrow({ where: { id: item.connectionId } });

  const uploadId = item.uploadId ?? newId("upl");
  if (!item.uploadId) await db.importItem.update({ where: { id: item.id }, data: { uploadId, status: "transferring" } });
  // A crash after the upload was recorded: the file is in; only the item's own mark is missing.
  if (await db.upload.findUnique({ where: { id: uploadId }, select: { id: true } })) {
    await db.importItem.update({ where: { id: item.id }, data: { status: "imported", finishedAt: new Date() } });
    return { status: "imported", uploadId };
  }

  const storageKey = uploadStorageKey(item.workspaceId, uploadId);
  const fileName = safeFileName(item.fileName);
  let stored: { sizeBytes: number; contentHash: string; format: MediaFormat };
  try {
    stored = await streamIntoStorage(item.id, fileName, storageKey, await sourceFor(connection).open(item.sourceId));
  } catch (err) {
    if (!isAppError(err)) throw err; // infrastructure: the job's step retries, then its onFailure
    await failItem(item.id, err.message);
    return { status: "failed" };
  }

  const twin = await db.importItem.findFirst({
    where: { workspaceId: item.workspaceId, contentHash: stored.contentHash, status: "imported", id: { not: item.id } },
    select: { fileName: true, runId: true },
  });
  // Bytes already in the library through an upload (creatives record their sha256) count too.
  const twinCreative = twin
    ? null
    : await db.creative.findFirst({ where: { workspaceId: item.workspaceId, contentSha256: stored.contentHash }, select: { fileName: true, id: true } });
  if (twin || twinCreative) {
    await discardStoredFiles([storageKey], "import skipped as a duplicate");
    await db.importItem.update({
      where: { id: item.id },
      data: {
        status: "skipped",
        contentHash: stored.contentHash,
        bytesDone: BigInt(stored.sizeBytes),
        uploadId: null,
        error: twin
          ? `Same bytes as "${twin.fileName}", imported by run ${twin.runId}`
          : `Same bytes as creative "${twinCreative!.fileName}" (${twinCreative!.id})`,
        finishedAt: new Date(),
      },
    });
    return { status: "skipped" };
  }

  const perceptual = stored.format.kind === "image" ? await nearDuplicate(item.workspaceId, item.id, storageKey) : null;
  await db.$transaction([
    db.upload.create({
      data: {
        id: uploadId,
        workspaceId: item.workspaceId,
        folderId: run.folderId,
        createdById: run.createdById,
        fileName,
        kind: stored.format.kind,
        contentType: stored.format.contentType,
        sizeBytes: stored.sizeBytes,
        storageKey,
        platform: run.platform,
      },
    }),
    db.importItem.update({
      where: { id: item.id },
      data: {
        status: "imported",
        contentHash: stored.contentHash,
        bytesDone: BigInt(stored.sizeBytes),
        sizeBytes: BigInt(stored.sizeBytes),
        perceptualHash: perceptual?.hash ?? null,
        nearDuplicateOf: perceptual?.of ?? null,
        finishedAt: new Date(),
      },
    }),
  ]);
  await startUploadJobs(item.workspaceId, [{ id: uploadId, jobRun: 1 }]);
  return { status: "imported", uploadId };
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

async function streamIntoStorage(
  itemId: string,
  fileName: string,
  storageKey: string,
  file: { stream: Readable },
): Promise<{ sizeBytes: number; contentHash: string; format: MediaFormat }> {
  const { head, rest } = await readHead(file.stream);
  const format = detectMediaFormat(head);
  if (!format) {
    file.stream.destroy();
    throw new AppError("invalid_input", `File "${fileName}" is not a supported image or video`);
  }
  const hash = createHash("sha256");
  let bytes = 0;
  let reported = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      if (bytes - reported < PROGRESS_EVERY_BYTES) return callback(null, chunk);
      reported = bytes;
      getDb()
        .importItem.update({ where: { id: itemId }, data: { bytesDone: BigInt(bytes) } })
        .then(
          () => callback(null, chunk),
          () => callback(null, chunk),
        );
    },
  });
  const inspector = new MediaInspector(fileName, format.contentType, format.kind);
  inspector.on("error", () => undefined);
  const body = Readable.from(joined(head, rest), { objectMode: false });
  void pipeline(body, counter, inspector).catch(() => undefined);
  try {
    const { sizeBytes } = await getStorage().put(storageKey, inspector, { contentType: format.contentType });
    return { sizeBytes, contentHash: hash.digest("hex"), format: inspector.format ?? format };
  } finally {
    file.stream.destroy();
  }
}

/** The first SIGNATURE_BYTES (or all, if fewer) and an iterator over the rest of the stream. */
async function readHead(stream: Readable): Promise<{ head: Buffer; rest: AsyncIterator<Buffer> }> {
  const rest = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < SIGNATURE_BYTES) {
    const next = await rest.next();
    if (next.done) break;
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    chunks.push(chunk);
    length += chunk.length;
  }
  return { head: Buffer.concat(chunks), rest };
}

async function* joined(head: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  if (head.length) yield head;
  for (;;) {
    const next = await rest.next();
    if (next.done) return;
    yield Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
  }
}

/** The image's dHash and, when an earlier import in the workspace is within NEAR_DUPLICATE_BITS, that item's id. */
async function nearDuplicate(workspaceId: string, itemId: string, storageKey: string): Promise<{ hash: string; of: string | null } | null> {
  try {
    const hash = await getStorage().withLocalFile(storageKey, (path) => differenceHash(path));
    if (!hasStructure(hash)) return { hash, of: null };
    const others = await getDb().importItem.findMany({
      where: { workspaceId, perceptualHash: { not: null }, status: "imported", id: { not: itemId } },
      select: { id: true, perceptualHash: true },
      orderBy: { createdAt: "asc" },
      take: 5000,
    });
    const match = others.find((o) => hasStructure(o.perceptualHash!) && hammingDistance(o.perceptualHash!, hash) <= NEAR_DUPLICATE_BITS);
    return { hash, of: match?.id ?? null };
  } catch (err) {
    // An image sharp cannot read still imports (the upload job decides); it just gets no hash.
    log.warn("no perceptual hash for an imported image", { component: "import", itemId, err });
    return null;
  }
}
