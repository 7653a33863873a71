import { Readable } from "node:stream";
import type { Principal } from "@/lib/auth/principal";
import { probeImage, probeVideo, UnreadableMediaError } from "@/lib/creatives/probe-media";
import { thumbnailPaths } from "@/lib/creatives/renditions";
import { getDb } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import { emitEventsInTransaction } from "@/lib/events/emit";
import { folderScope } from "@/lib/folders/access";
import { newId } from "@/lib/ids";
import { creativeDerivedKey, discardStoredFiles, getStorage } from "@/lib/storage";
import { detectMediaFormat, SIGNATURE_BYTES } from "@/lib/platforms/media-signature";
import { safeFileName } from "@/lib/uploads/file-name";
import { visibleCreativeOr404 } from "./creative-access";
import type { Version } from "./schemas";
import { isUniqueViolation } from "@/lib/db/errors";

/** Path of one version's media (served with the same key or session as mediaPath). */
export const versionMediaPath = (creativeId: string, number: number) => `/api/media/${creativeId}/versions/${number}`;

interface VersionRow {
  number: number;
  fileName: string;
  kind: "image" | "video";
  contentType: string;
  sizeBytes: number;
  width: number | null;
  height: number | null;
  storageKey: string;
  previewStorageKey: string | null;
  actorName: string;
  createdAt: Date;
}

/**
 * Every version of a creative, oldest first. A creative that never got a second file has one
 * version: itself (stored as a row once version 2 arrives).
 */
export async function versionRowsOf(creative: Omit<VersionRow, "number" | "actorName"> & { id: string }): Promise<{ rows: VersionRow[]; current: number }> {
  const db = getDb();
  const [rows, review] = await Promise.all([
    db.creativeVersion.findMany({ where: { creativeId: creative.id }, orderBy: { number: "asc" } }),
    db.creativeReview.findUnique({ where: { creativeId: creative.id }, select: { currentVersion: true } }),
  ]);
  if (rows.length) return { rows, current: review?.currentVersion ?? rows[rows.length - 1]!.number };
  return { rows: [{ ...creative, number: 1, actorName: "" }], current: 1 };
}

/** Lists a creative's versions with their comment counts, oldest first. */
export async function listVersions(principal: Principal, input: { creativeId: string }): Promise<{ versions: Version[]; currentVersion: number }> {
  const creative = await visibleCreativeOr404(principal, input.creativeId);
  const { rows, current } = await versionRowsOf(creative);
  const counts = await getDb().reviewComment.groupBy({ by: ["versionNumber"], where: { creativeId: creative.id }, _count: { _all: true } });
  return {
    currentVersion: current,
    versions: rows.map((v) => ({
      number: v.number,
      fileName: v.fileName,
      kind: v.kind,
      contentType: v.contentType,
      sizeBytes: v.sizeBytes,
      width: v.width,
      height: v.height,
      mediaPath: versionMediaPath(creative.id, v.number),
      thumbnails: thumbnailPaths(creative.id, v.storageKey),
      current: v.number === current,
      actorName: v.actorName,
      commentCount: counts.find((c) => c.versionNumber === v.number)?._count._all ?? 0,
      createdAt: v.createdAt.toISOString(),
    })),
  };
}

export interface NewVersionFile {
  fileName: string;
  contentBase64: string;
}

/** Puts the new version's bytes at its own storage key: a copy of a completed upload's file, or the given bytes. */
async function storeVersionBytes(
  principal: Principal,
  key: string,
  source: { uploadId?: string; file?: NewVersionFile },
): Promise<{ fileName: string; kind: "image" | "video"; contentType: string; sizeBytes: number }> {
  const storage = getStorage();
  if (source.uploadId) {
    const upload = await getDb().upload.findFirst({
      where: { id: source.uploadId, workspaceId: principal.workspaceId, status: "completed", ...(await folderScope(principal)) },
    });
    if (!upload) throw notFound("Completed upload");
    // A completed upload outlives its creative, whose deletion took the file.
    if (!(await storage.copy(upload.storageKey, key))) {
      throw new AppError("not_found", "The upload's file is gone: it was deleted with the creative made from it. Upload the file again.");
    }
    return { fileName: upload.fileName, kind: upload.kind, contentType: upload.contentType, sizeBytes: upload.sizeBytes };
  }
  const bytes = Buffer.from(source.file!.contentBase64, "base64");
  if (!bytes.byteLength) throw new AppError("invalid_request", "file.contentBase64: is empty or not base64");
  const format = detectMediaFormat(bytes.subarray(0, SIGNATURE_BYTES));
  if (!format) throw new AppError("invalid_request", "file: not a supported image or video");
  await storage.put(key, Readable.from([bytes]), { contentType: format.contentType });
  return { fileName: safeFileName(source.file!.fileName), kind: format.kind, contentType: format.contentType, sizeBytes: bytes.byteLength };
}

/**
 * Makes a new file the creative's next version: from a completed upload (its file is copied)
 * or from bytes. The creative's media (mediaPath) then serves the new version; earlier versions
 * keep their files and comments. The new file must be of the creative's kind (image or video).
 * Stores review.version_uploaded with the version, in its transaction.
 */
export async function addVersion(
  principal: Principal,
  input: { creativeId: string; uploadId?: string; file?: NewVersionFile },
): Promise<{ version: Version; currentVersion: number }> {
  if (!input.uploadId === !input.file) throw new AppError("invalid_request", "Give exactly one of uploadId and file");
  const creative = await visibleCreativeOr404(principal, input.creativeId);
  if (creative.status !== "ready") throw new AppError("conflict", `The creative is ${creative.status}; versions can be added once it is ready`);
  const versionId = newId("ver");
  const key = creativeDerivedKey(principal.workspaceId, creative.id, `versions-${versionId}`);
  const stored = await storeVersionBytes(principal, key, input);
  let number: number;
  try {
    number = await recordVersion(creative, { id: versionId, storageKey: key, ...stored }, principal.userName);
  } catch (err) {
    await discardStoredFiles([key], "version that was not recorded");
    throw err;
  }
  // Recorded: the file is the creative's now, whatever the answer's read below meets.
  const { versions } = await listVersions(principal, { creativeId: creative.id });
  return { version: versions.find((v) => v.number === number)!, currentVersion: number };
}

interface StoredVersion {
  id: string;
  storageKey: string;
  fileName: string;
  kind: "image" | "video";
  contentType: string;
  sizeBytes: number;
}

/**
 * Records a file already at its own storage key as the creative's next version (the creative then
 * serves it) and stores review.version_uploaded in the same transaction. Used by add_creative_version and
 * by the job of an upload sent as a version (versionOf). Returns the new version's number.
 */
export async function recordVersion(
  creative: { id: string; workspaceId: string; kind: "image" | "video"; fileName: string },
  stored: StoredVersion,
  actorName: string,
): Promise<number> {
  const { id: versionId, storageKey: key, ...file } = stored;
  if (file.kind !== creative.kind)
    throw new AppError("invalid_request", `The new file is ${file.kind === "image" ? "an image" : "a video"}; this creative's versions are ${creative.kind}s`);
  const dims = await getStorage()
    .withLocalFile(key, (f) => (file.kind === "image" ? probeImage(f) : probeVideo(f)))
    .catch((err: Error) => {
      // Only a verdict on the bytes refuses the version; a read or probe that failed for the moment is thrown
      // as it is (the version job's step retries try again, add_creative_version answers 500).
      if (err instanceof UnreadableMediaError) throw new AppError("invalid_request", `Could not read the ${file.kind}: ${err.message}`);
      throw err;
    });
  const db = getDb();
  try {
    const recorded = await db.$transaction(async (tx) => {
      const review = await tx.creativeReview.findUnique({ where: { creativeId: creative.id } });
      const current = review?.currentVersion ?? 1;
      const fresh = await tx.creative.findUniqueOrThrow({ where: { id: creative.id } });
      if (current === 1 && !(await tx.creativeVersion.findFirst({ where: { creativeId: creative.id, number: 1 } }))) {
        await tx.creativeVersion.create({
          data: {
            id: newId("ver"),
            workspaceId: fresh.workspaceId,
            creativeId: fresh.id,
            number: 1,
            fileName: fresh.fileName,
            kind: fresh.kind,
            contentType: fresh.contentType,
            sizeBytes: fresh.sizeBytes,
            width: fresh.width,
            height: fresh.height,
            durationMs: fresh.durationMs,
            storageKey: fresh.storageKey,
            previewStorageKey: fresh.previewStorageKey,
            actorName: "",
            createdAt: fresh.createdAt,
          },
        });
      }
      const next = current + 1;
      // The unique (creativeId, number) makes a concurrent add fail instead of sharing a number.
      await tx.creativeVersion.create({
        data: {
          id: versionId,
          workspaceId: fresh.workspaceId,
          creativeId: fresh.id,
          number: next,
          ...file,
          width: dims.width,
          height: dims.height,
          durationMs: dims.durationMs ?? null,
          storageKey: key,
          actorName,
        },
      });
      await tx.creativeReview.upsert({
        where: { creativeId: fresh.id },
        create: { creativeId: fresh.id, workspaceId: fresh.workspaceId, currentVersion: next },
        update: { currentVersion: next },
      });
      await tx.creative.update({
        where: { id: fresh.id },
        data: {
          contentType: file.contentType,
          sizeBytes: file.sizeBytes,
          width: dims.width,
          height: dims.height,
          durationMs: dims.durationMs ?? null,
          storageKey: key,
          previewStorageKey: null,
        },
      });
      const event = await emitEventsInTransaction(tx, creative.workspaceId, "review.version_uploaded", [
        { data: { version: { creativeId: creative.id, fileName: creative.fileName, actorName, versionNumber: next } } },
      ]);
      return { next, afterCommit: event.afterCommit };
    });
    await recorded.afterCommit();
    return recorded.next;
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("conflict", "Another version was added at the same time; try again");
    throw err;
  }
}

/** Storage of one version's media for a principal who can see the creative, or 404. */
export async function findVersionMedia(principal: Principal, input: { creativeId: string; number: number }) {
  const creative = await getDb().creative.findFirst({
    where: { id: input.creativeId, workspaceId: principal.workspaceId, status: "ready", ...(await folderScope(principal)) },
  });
  if (!creative) throw notFound("Media");
  const { rows } = await versionRowsOf(creative);
  const row = rows.find((r) => r.number === input.number);
  if (!row) throw notFound("Version");
  return { storageKey: row.storageKey, contentType: row.contentType, fileName: row.fileName };
}
