import { describe, expect, it } from "vitest";
import { parseRange } from "./http-range";

describe("parseRange", () => {
  it("reads single ranges against the size", () => {
    expect(parseRange("bytes=0-9", 100)).toEqual({ kind: "partial", start: 0, end: 9 });
    expect(parseRange("bytes=90-", 100)).toEqual({ kind: "partial", start: 90, end: 99 });
    expect(parseRange("bytes=-10", 100)).toEqual({ kind: "partial", start: 90, end: 99 });
    expect(parseRange("bytes=-1000", 100)).toEqual({ kind: "partial", start: 0, end: 99 });
    expect(parseRange("bytes=50-5000", 100)).toEqual({ kind: "partial", start: 50, end: 99 });
  });

  it("calls ranges past the end unsatisfiable", () => {
    expect(parseRange("bytes=100-", 100)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=-0", 100)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=0-", 0)).toEqual({ kind: "unsatisfiable" });
  });

  it("ignores what it does not serve: no header, other units, several ranges, reversed bounds", () => {
    for (const h of [null, "items=0-1", "bytes=0-1,5-6", "bytes=9-2", "bytes=-", "garbage"]) expect(parseRange(h, 100)).toEqual({ kind: "full" });
  });
});
