import type { Principal } from "@/lib/auth/principal";
import { getDb, sqlOf } from "@/lib/db/client";
import { conflict, notFound } from "@/lib/errors";
import { folderScope } from "@/lib/folders/access";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { afterUploadJobsEnqueued, enqueueUploadJobs } from "./accept-uploads";
import { releaseStoredMedia } from "./release-media";
import { toUpload, type Upload } from "./upload-schema";

/** Uploads the principal may see (workspace and folder scope), as a Prisma `where`. */
async function visibleUploads(principal: Principal) {
  return { workspaceId: principal.workspaceId, ...(await folderScope(principal)) };
}

/** One page of the workspace's uploads, newest first. */
export async function listUploads(
  principal: Principal,
  input: { limit: number; cursor?: string | null },
): Promise<{ uploads: Upload[]; nextCursor: string | null }> {
  const rows = await getDb().upload.findMany({
    where: { AND: [await visibleUploads(principal), afterCursor(input.cursor)] },
    orderBy: NEWEST_FIRST,
    take: input.limit + 1,
  });
  const page = toPage(rows, input.limit);
  return { uploads: page.items.map(toUpload), nextCursor: page.nextCursor };
}

/** One upload by id; 404 when it does not exist or is not visible to the principal. */
export async function getUpload(principal: Principal, input: { id: string }): Promise<{ upload: Upload }> {
  const row = await getDb().upload.findFirst({ where: { id: input.id, ...(await visibleUploads(principal)) } });
  if (!row) throw notFound("Upload");
  return { upload: toUpload(row) };
}

/** Runs a failed upload's job again (status back to processing); 404 unless the upload is failed. */
export async function retryUpload(principal: Principal, input: { id: string }): Promise<{ upload: { id: string; status: "processing" } }> {
  const where = { id: input.id, status: "failed" as const, ...(await visibleUploads(principal)) };
  const wake = await getDb().$transaction(async (tx) => {
    // Conditional on "failed", so two concurrent retries start exactly one job run.
    const { count } = await tx.upload.updateMany({
      where,
      data: { status: "processing", error: null, finishedAt: null, jobRun: { increment: 1 } },
    });
    if (count === 0) throw notFound("Failed upload");
    const row = await tx.upload.findFirstOrThrow({
      where: { id: input.id, workspaceId: principal.workspaceId },
      select: { jobRun: true, versionOfCreativeId: true },
    });
    return enqueueUploadJobs(sqlOf(tx), principal.workspaceId, [{ id: input.id, jobRun: row.jobRun, versionOf: row.versionOfCreativeId }]);
  });
  await afterUploadJobsEnqueued(wake, principal.workspaceId, [input.id]);
  return { upload: { id: input.id, status: "processing" } };
}

/**
 * Removes a finished upload from the list (409 while it is processing). Creatives it
 * produced stay; its stored file goes only when no creative uses it.
 */
export async function dismissUpload(principal: Principal, input: { id: string }): Promise<{ ok: true }> {
  const db = getDb();
  const visible = await visibleUploads(principal);
  const row = await db.upload.findFirst({ where: { id: input.id, ...visible }, select: { status: true, storageKey: true } });
  if (!row) throw notFound("Upload");
  if (row.status === "processing") throw conflict("The upload is still processing; dismiss it once it has completed or failed");
  const { count } = await db.upload.deleteMany({ where: { id: input.id, ...visible, status: { in: ["completed", "failed"] } } });
  if (count === 0) {
    // Retried (or dismissed) between our read and delete.
    const still = await db.upload.findFirst({ where: { id: input.id, ...visible }, select: { id: true } });
    if (!still) throw notFound("Upload");
    throw conflict("The upload is still processing; dismiss it once it has completed or failed");
  }
  await releaseStoredMedia(principal.workspaceId, row.storageKey);
  return { ok: true };
}
