import { z } from "zod";
import type { MediaPush } from "@/lib/generated/prisma/client";

export const MEDIA_PUSH_REQUESTED_EVENT = "media/push.requested";
export interface MediaPushRequestedData {
  pushId: string;
  workspaceId: string;
  jobRun: number;
}

export const MediaPushSchema = z.object({
  id: z.string(),
  creativeId: z.string().nullable(),
  adAccountId: z.string(),
  platform: z.enum(["platform_a", "platform_b"]),
  state: z
    .enum(["queued", "transferring", "processing", "ready", "failed"])
    .describe("queued, transferring (chunks), processing (on the platform), ready, failed"),
  externalId: z.string().nullable().describe("The platform's id for the media on that account (image hash, image id or video id), once known"),
  chunksDone: z.number().int().describe("Chunks the platform acknowledged (chunked pushes of large videos)"),
  chunksTotal: z.number().int().describe("0 for a push sent in one request"),
  failureReason: z.string().nullable().describe("The platform's reason, when failed"),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export function toMediaPush(row: MediaPush): z.input<typeof MediaPushSchema> {
  return {
    id: row.id,
    creativeId: row.creativeId,
    adAccountId: row.adAccountId,
    platform: row.platform,
    state: row.state,
    externalId: row.externalId,
    chunksDone: row.chunksDone,
    chunksTotal: row.chunksTotal,
    failureReason: row.failureReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
