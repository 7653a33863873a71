import type { MediaKind } from "@/lib/platforms/media-signature";

const MB = 1024 * 1024;

/** The spec's limits for POST /api/v1/uploads (a "MB" is 1,048,576 bytes). */
export const UPLOAD_LIMITS = {
  maxFiles: 25,
  maxBytes: { image: 30 * MB, video: 200 * MB } satisfies Record<MediaKind, number>,
  /** Non-file parts: only `platform` and `folderId` mean anything; anything huge is abuse. */
  maxFields: 20,
  maxFieldBytes: 1024,
  maxFileNameLength: 255,
} as const;

/** "30 MB" for messages. */
export function describeBytes(bytes: number): string {
  return bytes % MB === 0 ? `${bytes / MB} MB` : `${bytes} bytes`;
}
