import { describeBytes, UPLOAD_LIMITS } from "@/lib/uploads/limits";

/** The API's own limits, checked before any byte is sent; the server checks again (and shortens long names itself). */
export function checkFile(file: File): string | null {
  const kind = file.type.startsWith("image/") ? "image" : file.type.startsWith("video/") ? "video" : null;
  if (!kind) return `Not an image or video${file.type ? ` (${file.type})` : ""}`;
  if (file.size === 0) return "The file is empty";
  if (file.size > UPLOAD_LIMITS.maxBytes[kind]) return `Too large: ${kind}s can be up to ${describeBytes(UPLOAD_LIMITS.maxBytes[kind])}`;
  return null;
}

export const MAX_FILES = UPLOAD_LIMITS.maxFiles;
export const ACCEPT = "image/*,video/*";
