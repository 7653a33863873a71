import { describe, expect, it } from "vitest";
import { thumbnailPath, thumbnailPaths } from "./renditions";

// Thumbnail URLs are cached as immutable for a year: the tag of a stored file must not change with the code that makes it.
describe("thumbnail paths", () => {
  it("tag a storage key as they always have (the first 24 hex digits of SHA-256 over the recipe and the key)", () => {
    expect(thumbnailPaths("cr_1", "ws_1/creatives/cr_1/original.png")).toEqual({
      small: "/api/media/cr_1/thumbnails/320/351ebb183487a8370f90539a",
      large: "/api/media/cr_1/thumbnails/960/351ebb183487a8370f90539a",
    });
    expect(thumbnailPath("cr_1", "ws_1/creatives/cr_1/original.png", 960)).toBe("/api/media/cr_1/thumbnails/960/351ebb183487a8370f90539a");
  });

  it("give another file of the same creative other URLs", () => {
    expect(thumbnailPaths("cr_1", "ws_1/creatives/cr_1/v2.png").small).not.toBe(thumbnailPaths("cr_1", "ws_1/creatives/cr_1/original.png").small);
  });
});
