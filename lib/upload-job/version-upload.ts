import { getDb } from "@/lib/db/client";
import { isAppError } from "@/lib/errors";
import { recordVersion } from "@/lib/review/versions";
import { creativeDerivedKey, discardStoredFiles, getStorage } from "@/lib/storage";
import { failUpload, finishRun } from "./finish-upload";

interface RunRef {
  uploadId: string;
  jobRun: number;
}

export type VersionUploadOutcome =
  | { status: "completed"; creativeId: string; versionNumber: number }
  | { status: "failed"; error: string }
  | { status: "skipped" };

/**
 * The job of an upload sent as a new version (versionOf): its file becomes the creative's next
 * version and the upload completes pointing at that creative. No push and no new creative: a
 * version is the creative's, as add_creative_version makes it. Safe to repeat after a crash: the
 * version's storage key names the upload and run, so a version already recorded is not added twice.
 */
export async function completeVersionUpload(input: RunRef): Promise<VersionUploadOutcome> {
  const db = getDb();
  const upload = await db.upload.findUnique({ where: { id: input.uploadId } });
  if (!upload?.versionOfCreativeId || upload.jobRun !== input.jobRun) return { status: "skipped" };
  const creativeId = upload.versionOfCreativeId;
  const key = creativeDerivedKey(upload.workspaceId, creativeId, `versions-${upload.id}-${input.jobRun}`);
  let version = await db.creativeVersion.findFirst({ where: { creativeId, storageKey: key }, select: { number: true } });
  if (upload.status === "completed" && version) return { status: "completed", creativeId, versionNumber: version.number };
  if (upload.status !== "processing") return { status: "skipped" };

  if (!version) {
    const creative = await db.creative.findFirst({ where: { id: creativeId, workspaceId: upload.workspaceId } });
    const refusal = !creative
      ? "The creative this file was a new version of no longer exists"
      : creative.status !== "ready"
        ? `The creative is ${creative.status}; versions can be added once it is ready`
        : null;
    if (refusal || !creative) return fail(input, refusal!);
    const user = await db.user.findUnique({ where: { id: upload.createdById }, select: { name: true } });
    if (!(await getStorage().copy(upload.storageKey, key))) return fail(input, "The uploaded file is gone from storage; upload it again");
    try {
      const number = await recordVersion(
        creative,
        {
          id: `ver_${upload.id}_${input.jobRun}`,
          storageKey: key,
          fileName: upload.fileName,
          kind: upload.kind,
          contentType: upload.contentType,
          sizeBytes: upload.sizeBytes,
        },
        user?.name ?? "",
      );
      version = { number };
    } catch (err) {
      await discardStoredFiles([key], "version that was not recorded");
      // A refusal (wrong kind, unreadable file, a version added at the same moment) fails the upload; retry_upload tries again.
      if (isAppError(err) && err.status < 500) return fail(input, err.message);
      throw err;
    }
  }
  const finished = await db.$transaction((tx) => finishRun(tx, input, { status: "completed", error: null, creativeId }));
  await finished?.afterCommit();
  return { status: "completed", creativeId, versionNumber: version.number };
}

async function fail(input: RunRef, error: string): Promise<VersionUploadOutcome> {
  await failUpload({ ...input, error });
  return { status: "failed", error };
}
