import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { folderScope } from "@/lib/folders/access";

export type MediaRendition = "original" | "preview";

export interface CreativeMedia {
  storageKey: string;
  contentType: string;
  /** The name a download gets when the caller names none. */
  fileName: string;
}

/** Paths the creative resources return in `mediaPath` and `previewPath`. */
export const mediaPath = (creativeId: string) => `/api/media/${creativeId}`;
export const previewPath = (creativeId: string) => `/api/media/${creativeId}/preview`;

/**
 * Locates a ready creative's media for the principal, authorized by ownership: the
 * creative must be in the principal's workspace and visible folders. Anything else,
 * including a creative that is not ready or has no preview, is 404.
 */
export async function findCreativeMedia(principal: Principal, input: { creativeId: string; rendition: MediaRendition }): Promise<CreativeMedia> {
  const creative = await getDb().creative.findFirst({
    where: { id: input.creativeId, workspaceId: principal.workspaceId, status: "ready", ...(await folderScope(principal)) },
    select: { fileName: true, contentType: true, storageKey: true, previewStorageKey: true },
  });
  if (!creative) throw notFound("Media");
  if (input.rendition === "original") {
    return { storageKey: creative.storageKey, contentType: creative.contentType, fileName: creative.fileName };
  }
  if (!creative.previewStorageKey) throw notFound("Preview");
  return { storageKey: creative.previewStorageKey, contentType: "video/mp4", fileName: `${creative.fileName.replace(/\.[^.]*$/, "")}-preview.mp4` };
}
