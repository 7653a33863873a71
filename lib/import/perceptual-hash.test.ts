import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { differenceHash, hammingDistance, hasStructure, NEAR_DUPLICATE_BITS } from "./perceptual-hash";

/** A 200x150 grey picture with structure (gradients and waves), as photos have. */
function picture(value: (x: number, y: number) => number): Promise<Buffer> {
  const width = 200;
  const height = 150;
  const pixels = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels[y * width + x] = Math.max(0, Math.min(255, Math.round(value(x, y))));
  return sharp(pixels, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}

describe("differenceHash", () => {
  it("gives the same picture re-encoded or resized nearly the same hash, and a different picture a distant one", async () => {
    const photo = await picture((x, y) => 128 + 90 * Math.sin(x / 17) * Math.cos(y / 23) + x / 4);
    const hash = await differenceHash(photo);
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    const reencoded = await differenceHash(await sharp(photo).jpeg({ quality: 70 }).toBuffer());
    const resized = await differenceHash(await sharp(photo).resize(100, 75).webp().toBuffer());
    expect(hammingDistance(hash, reencoded)).toBeLessThanOrEqual(NEAR_DUPLICATE_BITS);
    expect(hammingDistance(hash, resized)).toBeLessThanOrEqual(NEAR_DUPLICATE_BITS);
    const other = await differenceHash(await picture((x, y) => 128 + 90 * Math.cos(x / 9 + y / 31) - y / 3));
    expect(hammingDistance(hash, other)).toBeGreaterThan(NEAR_DUPLICATE_BITS);
  });

  it("says a flat image has no structure to compare", async () => {
    expect(hasStructure(await differenceHash(await picture(() => 90)))).toBe(false);
    expect(hasStructure(await differenceHash(await picture((x, y) => 128 + 90 * Math.sin(x / 17) * Math.cos(y / 23))))).toBe(true);
  });

  it("counts differing bits", () => {
    expect(hammingDistance("0000000000000000", "0000000000000000")).toBe(0);
    expect(hammingDistance("ffffffffffffffff", "0000000000000000")).toBe(64);
    expect(hammingDistance("0000000000000003", "0000000000000001")).toBe(1);
  });
});
