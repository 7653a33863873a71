import { seededRandom } from "@/lib/random/seeded";

/**
 * Bayesian probability to be best, by Monte Carlo with a seeded generator (the same numbers
 * give the same answer on every instance and every re-run).
 *
 * Rates (CTR, conversion rate): Beta(1 + successes, 1 + failures) per variant, higher is better.
 * CPA: conversions per unit of spend as Gamma(1 + conversions, spend) per variant (Poisson
 * conversions, Gamma prior), a higher rate is a lower CPA.
 */

export const DRAWS = 20_000;

function normal(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/** Gamma(shape, 1) by Marsaglia and Tsang. */
function gamma(shape: number, rand: () => number): number {
  if (shape < 1) return gamma(shape + 1, rand) * Math.max(rand(), 1e-12) ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal(rand);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = rand();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

export type Evidence = { kind: "rate"; successes: number; trials: number } | { kind: "per_spend"; conversions: number; spend: number };

function draw(e: Evidence, rand: () => number): number {
  if (e.kind === "rate") {
    const a = gamma(1 + e.successes, rand);
    const b = gamma(1 + Math.max(0, e.trials - e.successes), rand);
    return a / (a + b);
  }
  return gamma(1 + e.conversions, rand) / Math.max(1, e.spend);
}

/** Each variant's probability of having the highest underlying rate. */
export function probabilityToBeBest(variants: Evidence[], seed: number, draws = DRAWS): number[] {
  const rand = seededRandom(seed);
  const wins = variants.map(() => 0);
  for (let i = 0; i < draws; i++) {
    let best = -1;
    let bestValue = -Infinity;
    variants.forEach((v, k) => {
      const x = draw(v, rand);
      if (x > bestValue) {
        bestValue = x;
        best = k;
      }
    });
    wins[best]!++;
  }
  return wins.map((w) => w / draws);
}
