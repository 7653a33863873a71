import type { Principal } from "@/lib/auth/principal";
import { isAppError } from "@/lib/errors";
import type { CallToAction } from "@/lib/platforms/ads-types";
import { toAd, type AdOut } from "./ad-schemas";
import { adClientRef, defaultAdName, loadMaterials, materialProblems } from "./ad-material";
import { checkBuildSize, makeAd, type PlannedAd } from "./ads";
import { getDb } from "@/lib/db/client";
import { invalidArgument, requireAdSet, requireNotDeleted } from "./lookups";
import { platformForCampaign } from "./platform-access";
import { groupByConcept } from "./concepts";
import { toAdBuild, type AdBuildOut } from "./ad-builds";

export interface BuildInput {
  adSetId: string;
  creativeIds: string[];
  copyVariantIds?: string[];
  callToAction: CallToAction;
  landingUrl: string;
  /** own (default): each creative with the chosen copy variants written for it; all: every creative with every chosen variant. */
  pairing?: Pairing;
  /** One ad per concept (creatives whose naming-convention labels differ only in aspect), with the aspect that fits the platform best. */
  byConcept?: boolean;
  dryRun?: boolean;
}

export const PAIRINGS = ["own", "all"] as const;
export type Pairing = (typeof PAIRINGS)[number];

/**
 * The (creative, copy variant) pairs a build makes, in the order of the creatives. "own": a creative gets
 * the chosen variants that belong to it (none chosen for it: one ad without copy), and a chosen variant of
 * a creative not chosen is refused rather than quietly dropped; "all": every creative with every variant.
 * No variants chosen: one ad per creative, without copy, either way.
 */
export function pairsFor(
  creativeIds: string[],
  copyIds: string[],
  copyCreative: (copyId: string) => string,
  pairing: Pairing,
): { creativeId: string; copyId: string | null }[] {
  if (pairing === "own") {
    const chosen = new Set(creativeIds);
    const strays = copyIds.filter((id) => !chosen.has(copyCreative(id)));
    if (strays.length) {
      throw invalidArgument(
        `copyVariantIds: ${strays.map((id) => `${id} belongs to creative ${copyCreative(id)}`).join(", ")}, which is not among creativeIds; ` +
          'add that creative, or pass pairing "all" to pair every copy variant with every creative',
      );
    }
  }
  return creativeIds.flatMap((creativeId) => {
    const mine = pairing === "all" ? copyIds : copyIds.filter((id) => copyCreative(id) === creativeId);
    return (mine.length ? mine : [null]).map((copyId) => ({ creativeId, copyId }));
  });
}

export interface BuildRow {
  creativeId: string;
  copyVariantId: string | null;
  name: string;
  problems: string[];
  adId: string | null;
  created: boolean;
  error: { code: string; message: string } | null;
  /** The pair's ad is built in the background once its creative reaches the ad account (a large video). */
  build: AdBuildOut | null;
  /** byConcept: every chosen creative of this ad's concept (the ad uses `creativeId`, the best fit). */
  conceptCreativeIds?: string[];
}

const CONCURRENCY = 4;

/**
 * The ads for the build's creative and copy variant pairs (see pairsFor), paused, in one ad set. Every pair is checked
 * against the platform's media and text rules first; with `dryRun` the checked matrix is the
 * answer, otherwise any problem refuses the whole call before anything is sent. Each ad is keyed
 * by its pair (adClientRef), so a call repeated after a crash or a kill makes only the missing
 * ads: exactly one ad per pair, here and on the platform. Rate limits are waited out; another
 * platform refusal is reported on its pair and the others go on.
 */
export async function buildAdsFromLibrary(
  principal: Principal,
  input: BuildInput,
): Promise<{ pairing: Pairing; pairs: number; ads: BuildRow[]; created: number; existing: number; failed: number; pending: number }> {
  const creativeIds = [...new Set(input.creativeIds)];
  const copyIds = [...new Set(input.copyVariantIds ?? [])];
  const pairing = input.pairing ?? "own";
  if (pairing === "all") checkBuildSize(creativeIds.length * Math.max(1, copyIds.length));
  const adSet = await requireAdSet(principal, input.adSetId);
  requireNotDeleted(adSet, "Ad set");
  const { creatives, copies } = await loadMaterials(principal, creativeIds, copyIds);
  const concepts = input.byConcept
    ? groupByConcept(
        adSet.platform,
        creativeIds.map((id) => creatives.get(id)!),
        (c) => materialProblems(adSet.platform, c, null, input.callToAction).length === 0,
      )
    : null;
  const chosenIds = concepts ? concepts.map((g) => g.chosen) : creativeIds;
  const chosenFor = new Map(concepts?.flatMap((g) => g.members.map((m) => [m, g.chosen] as const)));
  const pairs = pairsFor(chosenIds, copyIds, (id) => chosenFor.get(copies.get(id)!.creativeId) ?? copies.get(id)!.creativeId, pairing);
  checkBuildSize(pairs.length);

  const plans: PlannedAd[] = [];
  const rows: BuildRow[] = [];
  for (const { creativeId, copyId } of pairs) {
    const creative = creatives.get(creativeId)!;
    const copy = copyId ? copies.get(copyId)! : null;
    const name = defaultAdName(creative, copy);
    rows.push({
      creativeId,
      copyVariantId: copyId,
      name,
      problems: materialProblems(adSet.platform, creative, copy, input.callToAction),
      adId: null,
      created: false,
      error: null,
      build: null,
      ...(concepts ? { conceptCreativeIds: concepts.find((g) => g.chosen === creativeId)!.members } : {}),
    });
    plans.push({ adSet, creative, copy, name, callToAction: input.callToAction, landingUrl: input.landingUrl, leadFormId: null, draftId: null });
  }
  // Ads already made for these pairs (a repeated build, or one cut short).
  const refs = rows.map((r) => adClientRef(adSet.id, r.creativeId, r.copyVariantId));
  const existing = await getDb().ad.findMany({ where: { workspaceId: principal.workspaceId, clientRef: { in: refs } }, select: { id: true, clientRef: true } });
  const existingByRef = new Map(existing.map((e) => [e.clientRef, e.id]));
  rows.forEach((r, i) => {
    r.adId = existingByRef.get(refs[i]!) ?? null;
  });

  if (input.dryRun) return summarize(pairing, rows);
  const refused = rows.filter((r) => r.problems.length && !r.adId);
  if (refused.length) throw invalidArgument(refused.flatMap((r) => r.problems.map((p) => `${r.name}: ${p}`)).join("; "));

  const target = await platformForCampaign(principal, adSet.campaignId);
  let next = 0;
  const worker = async () => {
    while (next < plans.length) {
      const i = next++;
      try {
        const made = await makeAd(principal, plans[i]!, { waitOutRateLimits: true, target });
        if (made.ad) {
          rows[i]!.adId = made.ad.id;
          rows[i]!.created = made.created;
        } else rows[i]!.build = toAdBuild(made.build);
      } catch (err) {
        if (!isAppError(err)) throw err;
        rows[i]!.error = { code: err.code, message: err.message };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, plans.length) }, worker));
  return summarize(pairing, rows);
}

function summarize(pairing: Pairing, rows: BuildRow[]) {
  return {
    pairing,
    pairs: rows.length,
    ads: rows,
    created: rows.filter((r) => r.created).length,
    existing: rows.filter((r) => r.adId && !r.created).length,
    failed: rows.filter((r) => r.error).length,
    pending: rows.filter((r) => r.build).length,
  };
}

export type { AdOut };
export { toAd };
