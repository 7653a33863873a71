import { labelsForNewCreative } from "@/lib/creatives/naming";
import { getDb } from "@/lib/db/client";
import { emitEvent } from "@/lib/events/emit";
import { newId } from "@/lib/ids";
import { platformIdColumns } from "@/lib/platforms";
import { toUpload } from "@/lib/uploads/upload-schema";

interface RunRef {
  uploadId: string;
  jobRun: number;
}

/**
 * Marks the upload completed with its platform id and files its creative (`importing`),
 * in one transaction that only applies while this job run still owns the upload
 * (status processing, same jobRun). Then emits `upload.completed` once per job run:
 * safe to repeat after a crash at any point. Returns the creative's id, or null when the
 * run does not own the upload.
 */
export async function completeUpload(input: RunRef & { externalId: string }): Promise<{ creativeId: string | null }> {
  const db = getDb();
  const creativeId = await db.$transaction(async (tx) => {
    const upload = await tx.upload.findUnique({ where: { id: input.uploadId } });
    if (!upload || upload.jobRun !== input.jobRun) return null;
    // A repeat after a crash: the first execution already committed; carry on with its creative.
    if (upload.status === "completed") return upload.creativeId;
    if (upload.status !== "processing") return null;
    const id = newId("crv");
    const { count } = await tx.upload.updateMany({
      where: { id: upload.id, status: "processing", jobRun: input.jobRun },
      data: { status: "completed", error: null, finishedAt: new Date(), creativeId: id, ...platformIdColumns(upload.platform, upload.kind, input.externalId) },
    });
    if (!count) return null;
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
    return id;
  });
  await emitTerminalEvent(input);
  return { creativeId };
}

/** Marks the upload failed with `error` (only while this job run owns it), then emits `upload.failed` once per job run. */
export async function failUpload(input: RunRef & { error: string }): Promise<void> {
  await getDb().upload.updateMany({
    where: { id: input.uploadId, status: "processing", jobRun: input.jobRun },
    data: { status: "failed", error: input.error.slice(0, 2000), finishedAt: new Date() },
  });
  await getDb().mediaPush.updateMany({
    where: { uploadId: input.uploadId, jobRun: input.jobRun, state: { not: "ready" } },
    data: { state: "failed", failureReason: input.error.slice(0, 2000), finishedAt: new Date() },
  });
  await emitTerminalEvent(input);
}

/**
 * Emits the run's terminal event if the upload ended in this run. The dedupe key names the
 * run, so a step repeated after a crash (before or after the first emit) sends one event.
 */
export async function emitTerminalEvent({ uploadId, jobRun }: RunRef): Promise<void> {
  const upload = await getDb().upload.findUnique({ where: { id: uploadId } });
  if (!upload || upload.jobRun !== jobRun || upload.status === "processing") return;
  const type = upload.status === "completed" ? "upload.completed" : "upload.failed";
  await emitEvent({ workspaceId: upload.workspaceId, type, data: { upload: toUpload(upload) }, dedupeKey: `${type}:${uploadId}:${jobRun}` });
}

/**
 * The job function failed for good (infrastructure errors outlasted the step retries): nothing
 * this run started may stay in progress. A still-processing upload fails (with its event); a
 * creative it filed that is still importing fails too.
 */
export async function abandonRun(input: RunRef & { reason: string }): Promise<void> {
  await failUpload({ ...input, error: `The upload job stopped unexpectedly: ${input.reason}` });
  const upload = await getDb().upload.findUnique({ where: { id: input.uploadId }, select: { creativeId: true, jobRun: true } });
  if (upload?.creativeId && upload.jobRun === input.jobRun) {
    await getDb().creative.updateMany({
      where: { id: upload.creativeId, status: "importing" },
      data: { status: "failed", error: `Import stopped unexpectedly: ${input.reason}` },
    });
  }
}
