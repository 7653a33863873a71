import { getDb, sqlOf } from "@/lib/db/client";
import { log } from "@/lib/log";
import { withImageWork } from "@/lib/creatives/image-work";
import { notifyImportFinished } from "@/lib/notifications/sources";
import { getStorage } from "@/lib/storage";
import { afterUploadJobsEnqueued, enqueueUploadJobs } from "@/lib/uploads/accept-uploads";
import { differenceHash, hammingDistance, hasStructure, NEAR_DUPLICATE_BITS } from "./perceptual-hash";

/*
 * What a run does once every item's transfer has ended (inngest/functions/import-run-finish.ts):
 * the images' near-duplicate check, then the uploads' jobs (push, probe, thumbnails), then the
 * summary. Image decodes and pushes compete for the same cores as transfers, so they wait until
 * the run's bytes are all in (docs/performance.md, "Round 4"). Each step is safe to repeat.
 */

/** Earlier imports an image is compared with, oldest first. */
const MAX_COMPARED_HASHES = 5000;

/**
 * Hashes the run's imported images that have no perceptual hash yet, in the order they were
 * asked for, and flags each one within NEAR_DUPLICATE_BITS of an earlier import of the workspace
 * (this run's earlier items included). Returns how many it hashed.
 */
export async function flagNearDuplicates(runId: string): Promise<number> {
  const db = getDb();
  const run = await db.importRun.findUnique({ where: { id: runId }, select: { workspaceId: true } });
  if (!run) return 0;
  const items = await db.importItem.findMany({
    where: { runId, status: "imported", perceptualHash: null, uploadId: { not: null } },
    select: { id: true, uploadId: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  if (!items.length) return 0;
  const uploads = await db.upload.findMany({
    where: { id: { in: items.map((i) => i.uploadId!) }, kind: "image" },
    select: { id: true, storageKey: true },
  });
  const keyOf = new Map(uploads.map((u) => [u.id, u.storageKey]));
  const known = (
    await db.importItem.findMany({
      where: { workspaceId: run.workspaceId, perceptualHash: { not: null }, status: "imported" },
      select: { id: true, perceptualHash: true },
      orderBy: { createdAt: "asc" },
      take: MAX_COMPARED_HASHES,
    })
  ).filter((o) => hasStructure(o.perceptualHash!));
  let hashed = 0;
  for (const item of items) {
    const storageKey = keyOf.get(item.uploadId!);
    if (!storageKey) continue;
    const hash = await perceptualHashOf(item.id, storageKey);
    if (hash === null) continue;
    const match = hasStructure(hash) ? known.find((o) => o.id !== item.id && hammingDistance(o.perceptualHash!, hash) <= NEAR_DUPLICATE_BITS) : undefined;
    await db.importItem.update({ where: { id: item.id }, data: { perceptualHash: hash, nearDuplicateOf: match?.id ?? null } });
    if (hasStructure(hash)) known.push({ id: item.id, perceptualHash: hash });
    hashed++;
  }
  return hashed;
}

async function perceptualHashOf(itemId: string, storageKey: string): Promise<string | null> {
  try {
    return await getStorage().withLocalFile(storageKey, (path) => withImageWork(() => differenceHash(path)));
  } catch (err) {
    // An image sharp cannot read stays imported (its upload job decides); it just gets no hash.
    log.warn("no perceptual hash for an imported image", { component: "import", itemId, err });
    return null;
  }
}

/**
 * Starts the upload job of each upload the run recorded (the job of an upload made by hand, run 1).
 * A repeat sends the same event ids, which are ignored.
 */
export async function startRunUploads(runId: string): Promise<number> {
  const db = getDb();
  const run = await db.importRun.findUnique({ where: { id: runId }, select: { workspaceId: true } });
  if (!run) return 0;
  const items = await db.importItem.findMany({ where: { runId, status: "imported", uploadId: { not: null } }, select: { uploadId: true } });
  const waiting = await db.upload.findMany({
    where: { id: { in: items.map((i) => i.uploadId!) }, workspaceId: run.workspaceId, status: "processing", jobRun: 1 },
    select: { id: true },
    orderBy: { createdAt: "asc" },
  });
  const ids = waiting.map((u) => u.id);
  if (!ids.length) return 0;
  const wake = await db.$transaction((tx) =>
    enqueueUploadJobs(
      sqlOf(tx),
      run.workspaceId,
      ids.map((id) => ({ id, jobRun: 1 })),
    ),
  );
  await afterUploadJobsEnqueued(wake, run.workspaceId, ids);
  return ids.length;
}

/** Fails the uploads a run recorded and could not start the jobs of (the run's follow-up stopped for good). */
export async function failRunUploads(runId: string, reason: string): Promise<void> {
  const db = getDb();
  const items = await db.importItem.findMany({ where: { runId, status: "imported", uploadId: { not: null } }, select: { uploadId: true } });
  await db.upload.updateMany({
    where: { id: { in: items.map((i) => i.uploadId!) }, status: "processing", jobRun: 1 },
    data: { status: "failed", error: reason.slice(0, 2000), finishedAt: new Date() },
  });
}

/**
 * Ends the run with its summary (counts recounted from its items) and tells whoever started it,
 * once: `error` makes it a failed run.
 */
export async function completeRun(runId: string, error?: string): Promise<void> {
  const db = getDb();
  const groups = await db.importItem.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } });
  const count = (s: string) => groups.find((g) => g.status === s)?._count._all ?? 0;
  const duplicateCount = await db.importItem.count({ where: { runId, nearDuplicateOf: { not: null } } });
  const counts = { importedCount: count("imported"), skippedCount: count("skipped"), failedCount: count("failed"), duplicateCount };
  const { count: ended } = await db.importRun.updateMany({
    where: { id: runId, status: "running" },
    data: { ...counts, status: error ? "failed" : "completed", error: error?.slice(0, 2000) ?? null, finishedAt: new Date() },
  });
  if (!ended) return;
  const run = await db.importRun.findUnique({ where: { id: runId }, select: { workspaceId: true, createdById: true, itemCount: true } });
  // A watched folder's sync that found nothing new is not news.
  if (run && run.itemCount > 0) await notifyImportFinished({ workspaceId: run.workspaceId, run: { id: runId, createdById: run.createdById, ...counts } });
}
