import { conceptOf } from "@/lib/creatives/naming";
import type { Creative } from "@/lib/generated/prisma/client";
import type { Platform } from "@/lib/generated/prisma/enums";

/**
 * The aspects each platform's main placements fit best, best first (docs/decisions.md): platform A's
 * feeds favour 4:5, then square, then full-screen vertical; platform B is a full-screen vertical feed.
 * Neither adapter takes placement-specific assets (one asset per ad), so a concept's ad gets one of them.
 */
export const ASPECT_PREFERENCE: Record<Platform, string[]> = {
  platform_a: ["4x5", "1x1", "9x16", "16x9"],
  platform_b: ["9x16", "4x5", "1x1", "16x9"],
};

export interface ConceptGroup {
  /** The creative the concept's ad uses. */
  chosen: string;
  /** Every given creative of the concept, in the order given. */
  members: string[];
}

/** The aspect a creative is: its `aspect` label, else its pixel ratio when it is one of the known ones. */
function aspectOf(creative: Creative): string | null {
  const labelled = conceptOf(creative.nameLabels)?.aspect;
  if (labelled) return labelled;
  if (!creative.width || !creative.height) return null;
  const ratio = creative.width / creative.height;
  const known = ["9x16", "4x5", "1x1", "16x9"].find((a) => {
    const [w, h] = a.split("x").map(Number);
    return Math.abs(ratio - w! / h!) < 0.02;
  });
  return known ?? null;
}

/**
 * Groups creatives by concept (labels other than aspect; a creative without labels is a concept of
 * its own), in the order of their first member, and picks per group the creative that can be built
 * (`usable`) with the aspect the platform prefers.
 */
export function groupByConcept(platform: Platform, creatives: Creative[], usable: (c: Creative) => boolean): ConceptGroup[] {
  const groups = new Map<string, Creative[]>();
  for (const c of creatives) {
    const key = conceptOf(c.nameLabels)?.key ?? `creative:${c.id}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const rank = (c: Creative) => {
    const i = ASPECT_PREFERENCE[platform].indexOf(aspectOf(c) ?? "");
    return (usable(c) ? 0 : 100) + (i === -1 ? 50 : i);
  };
  return [...groups.values()].map((members) => ({
    chosen: [...members].sort((a, b) => rank(a) - rank(b))[0]!.id,
    members: members.map((m) => m.id),
  }));
}
