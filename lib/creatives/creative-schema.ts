import { z } from "zod";
import type { Prisma } from "@/lib/generated/prisma/client";
import { thumbnailPaths } from "./renditions";

/** The spec's Creative resource. Used by REST, tools and the dashboard. */
export const CreativeSchema = z
  .object({
    id: z.string().describe("Creative id"),
    fileName: z.string().describe("Original file name"),
    kind: z.enum(["image", "video"]),
    contentType: z.string().describe("MIME type, verified from the file's bytes"),
    status: z.enum(["importing", "ready", "failed"]),
    error: z
      .string()
      .optional()
      .describe("Why the import failed (the file is no image or video that can be read, or reading it kept failing); present only when status is failed"),
    width: z.number().int().nullable().describe("Pixels; null until known"),
    height: z.number().int().nullable().describe("Pixels; null until known"),
    mediaPath: z
      .string()
      .nullable()
      .describe("`/api/media/<creative_id>`, fetched with the same Bearer key; `?download=<filename>` makes it an attachment. Null until ready"),
    previewPath: z.string().nullable().optional().describe("720p MP4 preview of a video; null until transcoded, always null for images"),
    thumbnails: z
      .object({
        small: z.string().describe("320 px wide WebP (a video's poster frame)"),
        large: z.string().describe("960 px wide WebP (a video's poster frame)"),
      })
      .nullable()
      .optional()
      .describe("Thumbnail paths (same Bearer key as mediaPath), cached as immutable: they change when the file does. Null until ready"),
    copyCount: z.number().int().describe("Number of copy variants"),
    labels: z
      .record(z.string(), z.string())
      .optional()
      .describe(
        "Labels read from the file name by the workspace's naming convention when the creative was made (e.g. concept, hook, aspect); absent when it has none",
      ),
    createdAt: z.string().describe("Creation time (ISO 8601, UTC)"),
  })
  .meta({ id: "Creative" });

export type Creative = z.infer<typeof CreativeSchema>;

/** Path of a creative's media binary (served by app/api/media). */
export const creativeMediaPath = (creativeId: string) => `/api/media/${creativeId}`;
/** Path of a video creative's 720p preview rendition. */
export const creativePreviewPath = (creativeId: string) => `/api/media/${creativeId}/preview`;

/**
 * The columns toCreative reads, with the copy count: a list selects only these twelve of a row's twenty (the others
 * include a second timestamp and the content hash, and a page decodes up to two hundred rows).
 */
export const CREATIVE_SELECT = {
  id: true,
  fileName: true,
  kind: true,
  contentType: true,
  status: true,
  width: true,
  height: true,
  storageKey: true,
  previewStorageKey: true,
  nameLabels: true,
  error: true,
  createdAt: true,
  _count: { select: { copies: true } },
} as const satisfies Prisma.CreativeSelect;

/** A database row (with its copy count) as the Creative resource. */
export function toCreative(row: Prisma.CreativeGetPayload<{ select: typeof CREATIVE_SELECT }>): Creative {
  const ready = row.status === "ready";
  return {
    id: row.id,
    fileName: row.fileName,
    kind: row.kind,
    contentType: row.contentType,
    status: row.status,
    ...(row.status === "failed" && row.error ? { error: row.error } : {}),
    width: row.width,
    height: row.height,
    mediaPath: ready ? creativeMediaPath(row.id) : null,
    previewPath: row.kind === "video" && ready && row.previewStorageKey ? creativePreviewPath(row.id) : null,
    thumbnails: ready ? thumbnailPaths(row.id, row.storageKey) : null,
    copyCount: row._count.copies,
    ...(isLabels(row.nameLabels) ? { labels: row.nameLabels } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}

/** Prisma `include` that loads what toCreative needs. */
export const CREATIVE_INCLUDE = { _count: { select: { copies: true } } } as const;

function isLabels(value: unknown): value is Record<string, string> {
  return !!value && typeof value === "object" && !Array.isArray(value) && Object.values(value).every((v) => typeof v === "string");
}
