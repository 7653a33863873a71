import type { MediaKind } from "@/lib/generated/prisma/enums";

/**
 * Recognizes media formats by their leading bytes ("magic numbers"): the one sniffer, used when
 * an upload is accepted (the declared content type must agree with the bytes) and by the sandbox
 * platforms when they receive a file, so both accept exactly the same formats.
 */

export type { MediaKind };

export interface MediaFormat {
  /** Short name for messages, e.g. "PNG". */
  name: string;
  kind: MediaKind;
  /** The canonical content type stored and served for this format. */
  contentType: string;
  /** Declared types that agree with this format (browsers and tools vary in what they send). */
  accepts: readonly string[];
}

const FORMATS = {
  jpeg: { name: "JPEG", kind: "image", contentType: "image/jpeg", accepts: ["image/jpeg", "image/jpg", "image/pjpeg"] },
  png: { name: "PNG", kind: "image", contentType: "image/png", accepts: ["image/png", "image/x-png", "image/apng"] },
  gif: { name: "GIF", kind: "image", contentType: "image/gif", accepts: ["image/gif"] },
  webp: { name: "WebP", kind: "image", contentType: "image/webp", accepts: ["image/webp"] },
  bmp: { name: "BMP", kind: "image", contentType: "image/bmp", accepts: ["image/bmp", "image/x-bmp", "image/x-ms-bmp"] },
  tiff: { name: "TIFF", kind: "image", contentType: "image/tiff", accepts: ["image/tiff", "image/tif"] },
  avif: { name: "AVIF", kind: "image", contentType: "image/avif", accepts: ["image/avif"] },
  // MP4 and QuickTime share the ISO base media layout; uploaders often label one as the other.
  mp4: { name: "MP4", kind: "video", contentType: "video/mp4", accepts: ["video/mp4", "video/x-m4v", "video/quicktime", "video/3gpp", "video/3gpp2"] },
  mov: { name: "QuickTime", kind: "video", contentType: "video/quicktime", accepts: ["video/quicktime", "video/mp4", "video/x-m4v"] },
  webm: { name: "WebM", kind: "video", contentType: "video/webm", accepts: ["video/webm", "video/x-matroska"] },
  mkv: { name: "Matroska", kind: "video", contentType: "video/x-matroska", accepts: ["video/x-matroska", "video/webm"] },
  avi: { name: "AVI", kind: "video", contentType: "video/x-msvideo", accepts: ["video/x-msvideo", "video/avi", "video/msvideo"] },
} satisfies Record<string, MediaFormat>;

/** Names of the recognized formats, for error messages. */
export const SUPPORTED_FORMATS: Record<MediaKind, string[]> = {
  image: Object.values(FORMATS)
    .filter((f) => f.kind === "image")
    .map((f) => f.name),
  video: [
    ...new Set(
      Object.values(FORMATS)
        .filter((f) => f.kind === "video")
        .map((f) => f.name),
    ),
  ],
};

/** How many leading bytes detectMediaFormat needs to decide. */
export const SIGNATURE_BYTES = 64;

const ascii = (head: Buffer, start: number, end: number) => head.subarray(start, end).toString("latin1");
const startsWith = (head: Buffer, bytes: number[]) => head.length >= bytes.length && bytes.every((b, i) => head[i] === b);

/** The format the bytes are in, or null when they are not a recognized image or video. */
export function detectMediaFormat(head: Buffer): MediaFormat | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return FORMATS.jpeg;
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return FORMATS.png;
  if (ascii(head, 0, 6) === "GIF87a" || ascii(head, 0, 6) === "GIF89a") return FORMATS.gif;
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "WEBP") return FORMATS.webp;
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "AVI ") return FORMATS.avi;
  if (ascii(head, 0, 2) === "BM" && head.length >= 26 && head.readUInt32LE(14) >= 12) return FORMATS.bmp;
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return FORMATS.tiff;
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return ascii(head, 4, SIGNATURE_BYTES).includes("webm") ? FORMATS.webm : FORMATS.mkv;
  return detectIsoBmff(head);
}

/** MP4 / QuickTime / AVIF: a box stream whose first box is `ftyp` (or, in old QuickTime files, a movie atom). */
function detectIsoBmff(head: Buffer): MediaFormat | null {
  if (head.length < 12) return null;
  const firstBox = ascii(head, 4, 8);
  if (firstBox === "ftyp") {
    const major = ascii(head, 8, 12);
    if (major === "avif" || major === "avis") return FORMATS.avif;
    if (major === "qt  ") return FORMATS.mov;
    if (/^(heic|heix|heim|heis|hevc|hevx|mif1|msf1)$/.test(major)) return null; // HEIF stills: not supported
    return FORMATS.mp4;
  }
  if (["moov", "mdat", "wide", "free", "skip", "pnot"].includes(firstBox) && head.readUInt32BE(0) >= 8) return FORMATS.mov;
  return null;
}

/** A declared `Content-Type` reduced to `type/subtype` in lower case. */
export function normalizeContentType(declared: string | undefined): string {
  return (declared ?? "").split(";")[0]!.trim().toLowerCase();
}
