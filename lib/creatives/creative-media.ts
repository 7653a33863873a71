import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { folderScope } from "@/lib/folders/access";
import { log } from "@/lib/log";
import { ensureThumbnails, type RenditionSource, renditionTag, thumbnailKey, type ThumbnailWidth } from "./renditions";

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

/**
 * Locates a thumbnail of a ready creative for the principal (same authorization as its media),
 * rendering it on first request when the upload job has not yet (or creatives made before
 * thumbnails existed). The tag names the current file or an earlier version's; any other is 404.
 */
export async function findCreativeThumbnail(principal: Principal, input: { creativeId: string; width: ThumbnailWidth; tag: string }): Promise<CreativeMedia> {
  const creative = await getDb().creative.findFirst({
    where: { id: input.creativeId, workspaceId: principal.workspaceId, status: "ready", ...(await folderScope(principal)) },
    select: { id: true, workspaceId: true, kind: true, fileName: true, storageKey: true, durationMs: true },
  });
  if (!creative) throw notFound("Thumbnail");
  const source = renditionTag(creative.storageKey) === input.tag ? creative : await earlierVersionWithTag(creative, input.tag);
  if (!source) throw notFound("Thumbnail");
  const rendered = await ensureThumbnails(source).catch((err: Error) => {
    log.warn("thumbnail could not be rendered", { component: "creatives", creativeId: creative.id, err });
    return false;
  });
  if (!rendered) throw notFound("Thumbnail");
  return {
    storageKey: thumbnailKey(source, input.width),
    contentType: "image/webp",
    fileName: `${creative.fileName.replace(/\.[^.]*$/, "")}-${input.width}.webp`,
  };
}

/** An earlier version of the creative whose file the tag names (its thumbnails for the compare view), or null. */
async function earlierVersionWithTag(creative: { id: string; workspaceId: string }, tag: string): Promise<RenditionSource | null> {
  const versions = await getDb().creativeVersion.findMany({
    where: { creativeId: creative.id, workspaceId: creative.workspaceId },
    select: { kind: true, storageKey: true, durationMs: true },
  });
  const match = versions.find((v) => renditionTag(v.storageKey) === tag);
  return match ? { id: creative.id, workspaceId: creative.workspaceId, ...match } : null;
}
