import { getDb } from "@/lib/db/client";
import type { AdAccountRef } from "@/lib/platforms";
import { getAdAccount } from "@/lib/platforms";
import type { MediaPush, Upload } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { requeuedPush, transferOnce, type TransferOutcome } from "@/lib/media-push/transfer";
import { isUniqueViolation } from "@/lib/db/errors";

/** What one push attempt came to; plain JSON so a job step can memoize it. */
export type PushOutcome = TransferOutcome;

/**
 * Pushes an upload's stored file to its workspace's default ad account once, as that account's
 * media push (lib/media-push: one request, or the chunked transfer resuming from its recorded
 * chunks). Platform refusals come back classified (retryable or terminal) rather than thrown, so
 * the job decides about the next attempt.
 */
export async function pushUploadOnce(input: { uploadId: string; jobRun: number; attempt: number }): Promise<PushOutcome> {
  const upload = await getDb().upload.findUnique({ where: { id: input.uploadId } });
  if (upload?.status !== "processing" || upload.jobRun !== input.jobRun) return { ok: false, stale: true };
  await getDb().upload.updateMany({ where: { id: upload.id, jobRun: input.jobRun, status: "processing" }, data: { attempt: input.attempt } });
  const account = await getAdAccount(upload.workspaceId, upload.platform);
  if (!account) {
    return { ok: false, retryable: false, code: "not_connected", message: `No ${upload.platform} ad account is connected for this workspace` };
  }
  const push = await openUploadPush(upload, account);
  return transferOnce(push.id, { jobRun: input.jobRun, attempt: input.attempt });
}

/** The upload's push to the account for this job run: made on the first attempt, started over by a retried upload (a new run). */
async function openUploadPush(upload: Upload, account: AdAccountRef): Promise<MediaPush> {
  const db = getDb();
  const key = { uploadId_adAccountId: { uploadId: upload.id, adAccountId: account.id } };
  const existing = await db.mediaPush.findUnique({ where: key });
  if (existing && existing.jobRun === upload.jobRun) return existing;
  if (existing) {
    await db.mediaPush.updateMany({
      where: { id: existing.id, jobRun: existing.jobRun },
      data: requeuedPush(upload.jobRun),
    });
    return db.mediaPush.findUniqueOrThrow({ where: key });
  }
  try {
    return await db.mediaPush.create({
      data: {
        id: newId("mpush"),
        workspaceId: upload.workspaceId,
        adAccountId: account.id,
        platform: upload.platform,
        uploadId: upload.id,
        jobRun: upload.jobRun,
        fileName: upload.fileName,
        kind: upload.kind,
        contentType: upload.contentType,
        sizeBytes: upload.sizeBytes,
        storageKey: upload.storageKey,
      },
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return db.mediaPush.findUniqueOrThrow({ where: key });
  }
}
