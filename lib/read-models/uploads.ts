import { authorize } from "@/lib/auth/authorize";
import type { Principal } from "@/lib/auth/principal";
import { getConfig } from "@/lib/services";
import { getDb } from "@/lib/db/client";
import { folderScope } from "@/lib/folders/access";

export interface UploadProgress {
  /** The push attempt the job is on (0 before the first). */
  attempt: number;
  /** The library creative a completed upload produced. */
  creativeId: string | null;
}

/**
 * What the dashboard's job list shows beyond the Upload resource: the attempt a running job is
 * on (out of `maxAttempts` per job run) and the creative a completed one produced.
 */
export async function uploadProgress(principal: Principal, ids: string[]): Promise<{ maxAttempts: number; uploads: Record<string, UploadProgress> }> {
  authorize(principal, "uploads.list");
  const rows = ids.length
    ? await getDb().upload.findMany({
        where: { id: { in: ids.slice(0, 200) }, workspaceId: principal.workspaceId, ...(await folderScope(principal)) },
        select: { id: true, attempt: true, creativeId: true },
      })
    : [];
  return {
    maxAttempts: getConfig().platforms.retryDelaysMs.length + 1,
    uploads: Object.fromEntries(rows.map((r) => [r.id, { attempt: r.attempt, creativeId: r.creativeId }])),
  };
}
