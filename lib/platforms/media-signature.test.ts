import { describe, expect, it } from "vitest";
import { detectMediaFormat } from "./media-signature";

const pad = (head: number[] | string) => Buffer.concat([typeof head === "string" ? Buffer.from(head, "latin1") : Buffer.from(head), Buffer.alloc(64)]);
const ftyp = (brand: string) => pad(`\u0000\u0000\u0000\u0018ftyp${brand}\u0000\u0000\u0000\u0000`);

describe("detectMediaFormat", () => {
  it("recognizes images by their signatures", () => {
    expect(detectMediaFormat(pad([0xff, 0xd8, 0xff, 0xe0]))?.name).toBe("JPEG");
    expect(detectMediaFormat(pad([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))?.name).toBe("PNG");
    expect(detectMediaFormat(pad("GIF89a"))?.name).toBe("GIF");
    expect(detectMediaFormat(pad("RIFF\u0000\u0000\u0000\u0000WEBPVP8 "))?.name).toBe("WebP");
    expect(detectMediaFormat(ftyp("avif"))?.name).toBe("AVIF");
  });

  it("tells MP4, QuickTime, WebM and Matroska apart", () => {
    expect(detectMediaFormat(ftyp("isom"))?.contentType).toBe("video/mp4");
    expect(detectMediaFormat(ftyp("qt  "))?.contentType).toBe("video/quicktime");
    expect(detectMediaFormat(pad("\u0000\u0000\u0000\u0008wide\u0000\u0000\u0000\u0010mdat"))?.contentType).toBe("video/quicktime");
    expect(detectMediaFormat(pad([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84, 0x77, 0x65, 0x62, 0x6d]))?.contentType).toBe("video/webm");
    expect(detectMediaFormat(pad([0x1a, 0x45, 0xdf, 0xa3, 0x42, 0x82, 0x88, ...Buffer.from("matroska")]))?.contentType).toBe("video/x-matroska");
  });

  it("recognizes nothing else", () => {
    expect(detectMediaFormat(pad("%PDF-1.7"))).toBeNull();
    expect(detectMediaFormat(ftyp("heic"))).toBeNull();
    expect(detectMediaFormat(Buffer.alloc(0))).toBeNull();
    expect(detectMediaFormat(pad("<svg xmlns="))).toBeNull();
  });
});
