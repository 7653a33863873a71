import { getDb } from "@/lib/db/client";
import { adapterFor, getAdAccount, PlatformError } from "@/lib/platforms";
import { log } from "@/lib/log";

/** What one push attempt came to; plain JSON so a job step can memoize it. */
export type PushOutcome =
  | { ok: true; externalId: string }
  | { ok: false; retryable: boolean; code: string; message: string }
  /** The upload is no longer this job run's to finish (dismissed, or already finished). */
  | { ok: false; stale: true };

/**
 * Pushes an upload's stored file to its workspace's ad account once. Platform refusals
 * come back classified (retryable or terminal) rather than thrown, so the job decides
 * about the next attempt; an unexpected failure counts as retryable.
 */
export async function pushUploadOnce(input: { uploadId: string; jobRun: number; attempt: number }): Promise<PushOutcome> {
  const upload = await getDb().upload.findUnique({ where: { id: input.uploadId } });
  if (upload?.status !== "processing" || upload.jobRun !== input.jobRun) return { ok: false, stale: true };
  await getDb().upload.updateMany({ where: { id: upload.id, jobRun: input.jobRun, status: "processing" }, data: { attempt: input.attempt } });
  try {
    const account = await getAdAccount(upload.workspaceId, upload.platform);
    if (!account) {
      return { ok: false, retryable: false, code: "not_connected", message: `No ${upload.platform} ad account is connected for this workspace` };
    }
    const { externalId } = await adapterFor(account).pushMedia({
      account,
      uploadId: upload.id,
      fileName: upload.fileName,
      kind: upload.kind,
      contentType: upload.contentType,
      sizeBytes: upload.sizeBytes,
      storageKey: upload.storageKey,
      jobRun: input.jobRun,
      attempt: input.attempt,
    });
    return { ok: true, externalId };
  } catch (err) {
    if (err instanceof PlatformError) return { ok: false, retryable: err.retryable, code: err.code, message: err.message };
    log.error("push failed unexpectedly", { component: "upload-job", uploadId: input.uploadId, err });
    return { ok: false, retryable: true, code: "upstream_error", message: `${upload.platform} could not be reached` };
  }
}
