import { UPLOAD_LIMITS } from "./limits";

/**
 * The client's file name made safe to store and show: no directory part (some
 * browsers send full paths), no control characters, at most 255 characters.
 */
export function safeFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? "";
  const cleaned = base
    .normalize("NFC")
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "")
    .trim();
  const name = cleaned === "." || cleaned === ".." ? "" : cleaned;
  return Array.from(name || "file").slice(0, UPLOAD_LIMITS.maxFileNameLength).join("");
}
