import sharp from "sharp";

/** Grey levels two neighbours may differ by and still count as equal. */
const FLAT_MARGIN = 3;

/**
 * A 64-bit difference hash (dHash): the image shrunk to 9x8 grey pixels, one bit per pair of
 * horizontal neighbours (left clearly brighter than right: a small margin keeps flat areas, where
 * compression noise would flip bits at random, stable). Re-encodes, resizes and small edits change
 * few bits; different images differ in about half. Hex, 16 characters.
 */
export async function differenceHash(input: string | Buffer): Promise<string> {
  const pixels = await sharp(input, { limitInputPixels: 100_000_000 }).greyscale().resize(9, 8, { fit: "fill" }).raw().toBuffer();
  let bits = 0n;
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      bits = (bits << 1n) | (pixels[y * 9 + x]! > pixels[y * 9 + x + 1]! + FLAT_MARGIN ? 1n : 0n);
    }
  }
  return bits.toString(16).padStart(16, "0");
}

/** Bits in which two hashes differ (0..64). */
export function hammingDistance(a: string, b: string): number {
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let count = 0;
  while (x) {
    count += Number(x & 1n);
    x >>= 1n;
  }
  return count;
}

/** At most this many differing bits: the same picture, re-encoded, resized or lightly edited. */
export const NEAR_DUPLICATE_BITS = 6;

/**
 * Too few set bits: a (nearly) flat image, whose hash says little; all flat images would look
 * alike, so they are never flagged as near-duplicates (identical bytes are caught by the content hash).
 */
export function hasStructure(hash: string): boolean {
  return hammingDistance(hash, "0000000000000000") >= 8;
}
