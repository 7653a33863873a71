import { z } from "zod";
import type { Upload as UploadRow } from "@/lib/generated/prisma/client";

export const PLATFORMS = ["platform_a", "platform_b"] as const;
export type PlatformName = (typeof PLATFORMS)[number];

/** The spec's Upload resource: every field always present. Used by REST, tools and webhook payloads. */
export const UploadSchema = z
  .object({
    id: z.string().describe("Upload id"),
    fileName: z.string().describe("Original file name"),
    kind: z.enum(["image", "video"]),
    sizeBytes: z.number().int().describe("File size in bytes"),
    status: z.enum(["processing", "completed", "failed"]),
    error: z.string().nullable().describe("Failure reason; set only on failed uploads"),
    platform: z.enum(PLATFORMS).describe("The ad account the file is pushed to"),
    platform_a: z.object({
      imageHash: z.string().nullable().describe("Set on completed platform A image uploads"),
      videoId: z.string().nullable().describe("Set on completed platform A video uploads"),
    }),
    platform_b: z.object({
      imageId: z.string().nullable().describe("Set on completed platform B image uploads"),
      videoId: z.string().nullable().describe("Set on completed platform B video uploads"),
    }),
    creativeId: z
      .string()
      .nullable()
      .describe("Set once completed: the creative this upload made, or for an upload sent with versionOf, the creative it became a version of"),
    versionOf: z.string().nullable().describe("The creative id this file was sent as a new version of (versionOf), or null"),
    createdAt: z.string().describe("Creation time (ISO 8601, UTC)"),
  })
  .meta({ id: "Upload" });

export type Upload = z.infer<typeof UploadSchema>;

/** A database row as the Upload resource. */
export function toUpload(row: UploadRow): Upload {
  return {
    id: row.id,
    fileName: row.fileName,
    kind: row.kind,
    sizeBytes: row.sizeBytes,
    status: row.status,
    error: row.status === "failed" ? (row.error ?? "Upload failed") : null,
    platform: row.platform,
    platform_a: { imageHash: row.platformAImageHash, videoId: row.platformAVideoId },
    platform_b: { imageId: row.platformBImageId, videoId: row.platformBVideoId },
    creativeId: row.status === "completed" ? row.creativeId : null,
    versionOf: row.versionOfCreativeId,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The event that starts (or restarts) an upload job; part B's job function consumes it. */
/** Starts (or restarts) the job of an upload that is a new version of a creative (versionOf): no push, no new creative. */
export const UPLOAD_VERSION_REQUESTED_EVENT = "upload/version-requested";
export const UPLOAD_REQUESTED_EVENT = "upload/requested";
export interface UploadRequestedData {
  uploadId: string;
  workspaceId: string;
  /** 1 for the first run; incremented by every retry, so runs can be told apart. */
  jobRun: number;
}
