import { describe, expect, it } from "vitest";
import { probabilityToBeBest } from "./probability";

describe("probability to be best", () => {
  it("is near certain for a clearly better rate, near even for equal ones, and the same for the same seed", () => {
    const clear = probabilityToBeBest(
      [
        { kind: "rate", successes: 150, trials: 10_000 },
        { kind: "rate", successes: 100, trials: 10_000 },
      ],
      7,
    );
    expect(clear[0]).toBeGreaterThan(0.99);
    const even = probabilityToBeBest(
      [
        { kind: "rate", successes: 100, trials: 10_000 },
        { kind: "rate", successes: 100, trials: 10_000 },
      ],
      7,
    );
    expect(even[0]).toBeGreaterThan(0.45);
    expect(even[0]).toBeLessThan(0.55);
    expect(
      probabilityToBeBest(
        [
          { kind: "rate", successes: 3, trials: 90 },
          { kind: "rate", successes: 5, trials: 80 },
        ],
        42,
      ),
    ).toEqual(
      probabilityToBeBest(
        [
          { kind: "rate", successes: 3, trials: 90 },
          { kind: "rate", successes: 5, trials: 80 },
        ],
        42,
      ),
    );
  });

  it("prefers the lower CPA (more conversions per spend) and sums to one over three variants", () => {
    const p = probabilityToBeBest(
      [
        { kind: "per_spend", conversions: 40, spend: 100_000 },
        { kind: "per_spend", conversions: 80, spend: 100_000 },
        { kind: "per_spend", conversions: 45, spend: 100_000 },
      ],
      1,
    );
    expect(p[1]).toBeGreaterThan(0.99);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
  });
});
