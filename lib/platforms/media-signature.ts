import type { MediaKind } from "@/lib/generated/prisma/enums";

/** Enough leading bytes to recognise every container below. */
export const SIGNATURE_BYTES = 32;

const startsWith = (b: Buffer, bytes: number[], offset = 0) => bytes.every((v, i) => b[offset + i] === v);
const ascii = (b: Buffer, from: number, to: number) => b.subarray(from, to).toString("latin1");

/**
 * The media kind and MIME type the leading bytes of a file prove, or null when they
 * are not an image or video container an ad platform accepts.
 */
export function sniffMedia(head: Buffer): { kind: MediaKind; contentType: string } | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { kind: "image", contentType: "image/jpeg" };
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { kind: "image", contentType: "image/png" };
  if (ascii(head, 0, 6) === "GIF87a" || ascii(head, 0, 6) === "GIF89a") return { kind: "image", contentType: "image/gif" };
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "WEBP") return { kind: "image", contentType: "image/webp" };
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "AVI ") return { kind: "video", contentType: "video/x-msvideo" };
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return { kind: "video", contentType: "video/webm" };
  if (ascii(head, 4, 8) === "ftyp") {
    const brand = ascii(head, 8, 12);
    if (/^(heic|heix|mif1|msf1)$/.test(brand)) return { kind: "image", contentType: "image/heic" };
    if (/^avi[fs]$/.test(brand)) return { kind: "image", contentType: "image/avif" };
    if (brand === "qt  ") return { kind: "video", contentType: "video/quicktime" };
    if (/^3g/.test(brand)) return { kind: "video", contentType: "video/3gpp" };
    return { kind: "video", contentType: "video/mp4" };
  }
  return null;
}
