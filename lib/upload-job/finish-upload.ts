import { labelsForNewCreative } from "@/lib/creatives/naming";
import { getDb } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { emitEventsInTransaction } from "@/lib/events/emit";
import { newId } from "@/lib/ids";
import { platformIdColumns } from "@/lib/platforms";
import { toUpload } from "@/lib/uploads/upload-schema";

interface RunRef {
  uploadId: string;
  jobRun: number;
}

type Tx = Prisma.TransactionClient;

/**
 * Marks the upload completed with its platform id and files its creative (`importing`),
 * in one transaction that only applies while this job run still owns the upload
 * (status processing, same jobRun) and that records `upload.completed`. Safe to repeat after a
 * crash at any point. Returns the creative's id, or null when the run does not own the upload.
 */
export async function completeUpload(input: RunRef & { externalId: string }): Promise<{ creativeId: string | null }> {
  const db = getDb();
  const { creativeId, afterCommit } = await db.$transaction(async (tx) => {
    const upload = await tx.upload.findUnique({ where: { id: input.uploadId } });
    if (!upload || upload.jobRun !== input.jobRun) return { creativeId: null };
    // A repeat after a crash: the first execution already committed (with its event); carry on with its creative.
    if (upload.status === "completed") return { creativeId: upload.creativeId };
    if (upload.status !== "processing") return { creativeId: null };
    const id = newId("crv");
    const finished = await finishRun(tx, input, {
      status: "completed",
      error: null,
      creativeId: id,
      ...platformIdColumns(upload.platform, upload.kind, input.externalId),
    });
    if (!finished) return { creativeId: null };
    // The upload's push to the account now belongs to its creative: the creative is present there.
    await tx.mediaPush.updateMany({ where: { uploadId: upload.id, jobRun: input.jobRun }, data: { creativeId: id } });
    // Every new creative passes here (uploads, resumable uploads, imports): its name is read by the workspace's convention.
    const workspace = await tx.workspace.findUnique({ where: { id: upload.workspaceId }, select: { fileNamePattern: true } });
    const nameLabels = labelsForNewCreative(workspace?.fileNamePattern, upload.fileName);
    await tx.creative.create({
      data: {
        id,
        workspaceId: upload.workspaceId,
        folderId: upload.folderId,
        uploadId: upload.id,
        createdById: upload.createdById,
        fileName: upload.fileName,
        kind: upload.kind,
        contentType: upload.contentType,
        sizeBytes: upload.sizeBytes,
        storageKey: upload.storageKey,
        status: "importing",
        ...(nameLabels ? { nameLabels } : {}),
      },
    });
    return { creativeId: id, afterCommit: finished.afterCommit };
  });
  await afterCommit?.();
  return { creativeId };
}

/**
 * Marks the upload failed with `error` (only while this job run owns it) and records
 * `upload.failed` in the same transaction.
 */
export async function failUpload(input: RunRef & { error: string }): Promise<void> {
  const error = input.error.slice(0, 2000);
  const afterCommit = await getDb().$transaction(async (tx) => {
    const finished = await finishRun(tx, input, { status: "failed", error });
    if (!finished) return undefined;
    await tx.mediaPush.updateMany({
      where: { uploadId: input.uploadId, jobRun: input.jobRun, state: { not: "ready" } },
      data: { state: "failed", failureReason: error, finishedAt: new Date() },
    });
    return finished.afterCommit;
  });
  await afterCommit?.();
}

/**
 * Ends this job run of a processing upload (`data` holds the terminal status) and records the
 * run's event (`upload.completed` or `upload.failed`) in the caller's transaction, so the status
 * and its event commit together: a retry or dismissal that follows the status at once cannot
 * come between them, nor can a crash. Null when the run no longer owns a processing upload (a
 * stale run, or a repeat of a step that already committed). Call `afterCommit` once committed.
 */
export async function finishRun(
  tx: Tx,
  run: RunRef,
  data: Prisma.UploadUpdateManyMutationInput & { status: "completed" | "failed"; creativeId?: string },
): Promise<{ afterCommit: () => Promise<void> } | null> {
  const [upload] = await tx.upload.updateManyAndReturn({
    where: { id: run.uploadId, status: "processing", jobRun: run.jobRun },
    data: { ...data, finishedAt: new Date() },
  });
  if (!upload) return null;
  const type = data.status === "completed" ? "upload.completed" : "upload.failed";
  const { afterCommit } = await emitEventsInTransaction(tx, upload.workspaceId, type, [
    { data: { upload: toUpload(upload) }, dedupeKey: `${type}:${run.uploadId}:${run.jobRun}` },
  ]);
  return { afterCommit };
}

/**
 * The job function failed for good (infrastructure errors outlasted the step retries, e.g. a file
 * that could not be read or probed on any attempt): nothing this run started may stay in progress.
 * A still-processing upload fails (with its event); a creative it filed that is still importing
 * fails too, with the last attempt's reason.
 */
export async function abandonRun(input: RunRef & { reason: string }): Promise<void> {
  await failUpload({ ...input, error: `The upload job stopped unexpectedly: ${input.reason}` });
  const upload = await getDb().upload.findUnique({ where: { id: input.uploadId }, select: { creativeId: true, jobRun: true } });
  if (upload?.creativeId && upload.jobRun === input.jobRun) {
    await getDb().creative.updateMany({
      where: { id: upload.creativeId, status: "importing" },
      data: { status: "failed", error: `Import failed after retries: ${input.reason}`.slice(0, 2000) },
    });
  }
}
