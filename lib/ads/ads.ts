import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { emitEvent } from "@/lib/events/emit";
import type { Ad, AdSet, Creative, CopyVariant, Upload } from "@/lib/generated/prisma/client";
import type { Platform } from "@/lib/generated/prisma/enums";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { newId } from "@/lib/ids";
import { adProblems } from "@/lib/platforms/ad-rules";
import { PlatformError } from "@/lib/platforms";
import type { AdObjectStatus, CallToAction } from "@/lib/platforms/ads-types";
import { toAd, type AdOut } from "./ad-schemas";
import { adClientRef, defaultAdName, loadMaterials, materialProblems } from "./ad-material";
import { invalidArgument, requireAd, requireAdSet, requireNotDeleted } from "./lookups";
import { platformForCampaign, withBusyRetry } from "./platform-access";
import { recentByAd } from "./insights";
import { notePlannerGrowth } from "./planner-stats";
import { ensureMediaOnAccount } from "@/lib/media-push/creative-pushes";
import { queueAdBuild, toAdBuild, type AdBuildOut } from "./ad-builds";
import type { AdBuild } from "@/lib/generated/prisma/client";
import { isUniqueViolation } from "@/lib/db/errors";

export interface AdSpecInput {
  adSetId: string;
  creativeId: string;
  copyVariantId?: string | null;
  name?: string;
  callToAction: CallToAction;
  landingUrl: string;
  leadFormId?: string | null;
}

/** One ad to make: its ad set and its checked material. */
export interface PlannedAd {
  adSet: AdSet;
  creative: Creative & { uploads: Upload[] };
  copy: CopyVariant | null;
  name: string;
  callToAction: CallToAction;
  landingUrl: string;
  leadFormId: string | null;
  draftId: string | null;
}

/** The ad made (or found), or, while the creative's media is still on its way to the account, its pending build. */
export type MadeAd = { ad: Ad; created: boolean; build: null } | { ad: null; created: false; build: AdBuild };

/**
 * Makes the planned ad (paused) on the platform and records it; emits `ad.created`. Keyed by the
 * (ad set, creative, copy) client reference: a repeat answers the existing ad (created: false)
 * and the platform answers its earlier object, so nothing is made twice. When the creative is a
 * large video not yet on the account, the ad is left to the ad-build job and its build answered.
 */
export async function makeAd(
  principal: Principal,
  plan: PlannedAd,
  options: { waitOutRateLimits: boolean; target?: Awaited<ReturnType<typeof platformForCampaign>>; mediaMustBeThere?: boolean },
): Promise<MadeAd> {
  const db = getDb();
  const clientRef = adClientRef(plan.adSet.id, plan.creative.id, plan.copy?.id ?? null);
  const key = { clientRef_workspaceId: { clientRef, workspaceId: principal.workspaceId } };
  const earlier = await db.ad.findUnique({ where: key });
  if (earlier) {
    await announce(principal.workspaceId, earlier); // a run cut short after recording still announces it once
    return { ad: earlier, created: false, build: null };
  }
  if (!options.mediaMustBeThere) {
    // The ad-build job builds this one: answer its build rather than race it to the platform.
    const waiting = await db.adBuild.findUnique({ where: key });
    if (waiting?.state === "waiting_for_media") return { ad: null, created: false, build: waiting };
  }
  const platform = plan.adSet.platform;
  const { account, api } = options.target ?? (await platformForCampaign(principal, plan.adSet.campaignId));
  // The one creative, sent to this account first when it is not there yet (no second creative).
  const media = await ensureMediaOnAccount(plan.creative, await db.adAccount.findUniqueOrThrow({ where: { id: account.id } }));
  if ("pending" in media) {
    if (options.mediaMustBeThere) throw new PlatformError("upstream_error", `Creative ${plan.creative.id} is not on the ad account yet`, { retryable: true });
    return { ad: null, created: false, build: await queueAdBuild(principal, plan, clientRef, media.pending, media.fresh) };
  }
  const mediaId = media.mediaId;
  const call = () =>
    api.createAd(account, {
      clientRef,
      adSetExternalId: plan.adSet.externalId,
      name: plan.name,
      status: "paused",
      creative: {
        mediaId,
        kind: plan.creative.kind,
        headline: plan.copy?.headline ?? null,
        primaryText: plan.copy?.primaryText ?? null,
        description: plan.copy?.description ?? null,
        callToAction: plan.callToAction,
        landingUrl: plan.landingUrl,
        leadFormId: plan.leadFormId,
      },
    });
  const made = options.waitOutRateLimits ? await withBusyRetry(call) : await call();
  let ad: Ad;
  let created = true;
  try {
    ad = await db.ad.create({
      data: {
        id: newId("ad"),
        workspaceId: principal.workspaceId,
        campaignId: plan.adSet.campaignId,
        adSetId: plan.adSet.id,
        platform,
        clientRef,
        externalId: made.externalId,
        name: made.name,
        status: made.status,
        creativeId: plan.creative.id,
        copyVariantId: plan.copy?.id ?? null,
        headline: made.creative.headline,
        primaryText: made.creative.primaryText,
        description: made.creative.description,
        callToAction: made.creative.callToAction,
        landingUrl: made.creative.landingUrl,
        leadFormId: made.creative.leadFormId,
        draftId: plan.draftId,
        createdById: principal.userId,
      },
    });
  } catch (err) {
    // A concurrent call for the same pair recorded it first: answer that ad.
    if (!isUniqueViolation(err)) throw err;
    ad = await db.ad.findUniqueOrThrow({ where: key });
    created = false;
  }
  await announce(principal.workspaceId, ad);
  if (created) await notePlannerGrowth(1);
  return { ad, created, build: null };
}

async function announce(workspaceId: string, ad: Ad): Promise<void> {
  await emitEvent({
    workspaceId,
    type: "ad.created",
    data: { ad: { adId: ad.id, name: ad.name, adsetId: ad.adSetId, creativeId: ad.creativeId } },
    dedupeKey: `ad.created:${ad.id}`,
  });
}

/** Checks one ad's material against the platform's rules; `invalid_input` listing every problem. */
export async function planAd(principal: Principal, input: AdSpecInput & { draftId?: string | null }): Promise<PlannedAd> {
  const adSet = await requireAdSet(principal, input.adSetId);
  requireNotDeleted(adSet, "Ad set");
  const { creatives, copies } = await loadMaterials(principal, [input.creativeId], input.copyVariantId ? [input.copyVariantId] : []);
  const creative = creatives.get(input.creativeId)!;
  const copy = input.copyVariantId ? copies.get(input.copyVariantId)! : null;
  const problems = materialProblems(adSet.platform, creative, copy, input.callToAction);
  if (input.leadFormId) {
    const { account, api } = await platformForCampaign(principal, adSet.campaignId);
    if (!(await api.listLeadForms(account)).some((f) => f.externalId === input.leadFormId))
      problems.push(`leadFormId: no lead form ${input.leadFormId} on the ${adSet.platform} ad account`);
  }
  if (problems.length) throw invalidArgument(problems.join("; "));
  return {
    adSet,
    creative,
    copy,
    name: input.name ?? defaultAdName(creative, copy),
    callToAction: input.callToAction,
    landingUrl: input.landingUrl,
    leadFormId: input.leadFormId ?? null,
    draftId: input.draftId ?? null,
  };
}

/** Creates one paused ad from a library creative and a copy variant, after checking the platform's media and text rules. */
export async function createAd(principal: Principal, input: AdSpecInput): Promise<{ ad: AdOut | null; build: AdBuildOut | null; created: boolean }> {
  const plan = await planAd(principal, input);
  const made = await makeAd(principal, plan, { waitOutRateLimits: false });
  return made.ad ? { ad: toAd(made.ad), build: null, created: made.created } : { ad: null, build: toAdBuild(made.build), created: false };
}

export async function getAd(principal: Principal, input: { id: string }) {
  const ad = await requireAd(principal, input.id);
  const recent = (await recentByAd(principal, [ad])).get(ad.id);
  return { ad: { ...toAd(ad), today: recent?.today ?? null, last7Days: recent?.last7Days ?? null } };
}

/** The workspace's ads, newest first, with today's delivery; of one ad set, campaign or platform when given. */
export async function listAds(
  principal: Principal,
  input: { adSetId?: string; campaignId?: string; platform?: Platform; status?: AdObjectStatus; limit: number; cursor?: string },
) {
  if (input.adSetId) await requireAdSet(principal, input.adSetId);
  const rows = await getDb().ad.findMany({
    where: {
      workspaceId: principal.workspaceId,
      ...(input.adSetId ? { adSetId: input.adSetId } : {}),
      ...(input.campaignId ? { campaignId: input.campaignId } : {}),
      ...(input.platform ? { platform: input.platform } : {}),
      status: input.status ?? { not: "deleted" },
      ...afterCursor(input.cursor),
    },
    orderBy: NEWEST_FIRST,
    take: input.limit + 1,
  });
  const page = toPage(rows, input.limit);
  const recent = await recentByAd(principal, page.items);
  return {
    ads: page.items.map((a) => ({ ...toAd(a), today: recent.get(a.id)?.today ?? null, last7Days: recent.get(a.id)?.last7Days ?? null })),
    nextCursor: page.nextCursor,
  };
}

/** Changes an ad's name, text, call to action or landing URL (checked against the platform's rules). */
export async function updateAd(
  principal: Principal,
  input: {
    id: string;
    name?: string;
    headline?: string | null;
    primaryText?: string | null;
    description?: string | null;
    callToAction?: CallToAction;
    landingUrl?: string;
  },
): Promise<{ ad: AdOut }> {
  const row = await requireAd(principal, input.id);
  requireNotDeleted(row, "Ad");
  const next = {
    headline: input.headline !== undefined ? input.headline : row.headline,
    primaryText: input.primaryText !== undefined ? input.primaryText : row.primaryText,
    description: input.description !== undefined ? input.description : row.description,
  };
  const callToAction = input.callToAction ?? (row.callToAction as CallToAction);
  const problems = adProblems(
    row.platform,
    { id: row.creativeId, kind: "image", width: null, height: null, durationMs: null, sizeBytes: 0 },
    next,
    callToAction,
  ).filter((p) => !p.startsWith("creative "));
  if (problems.length) throw invalidArgument(problems.join("; "));
  const { account, api } = await platformForCampaign(principal, row.campaignId);
  const creativePatch = {
    ...(input.headline !== undefined ? { headline: input.headline } : {}),
    ...(input.primaryText !== undefined ? { primaryText: input.primaryText } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.callToAction !== undefined ? { callToAction: input.callToAction } : {}),
    ...(input.landingUrl !== undefined ? { landingUrl: input.landingUrl } : {}),
  };
  if (input.name === undefined && Object.keys(creativePatch).length === 0) return { ad: toAd(row) };
  const updated = await api.updateAd(account, row.externalId, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(Object.keys(creativePatch).length ? { creative: creativePatch } : {}),
    clientRef: newId("ref"),
  });
  const saved = await getDb().ad.update({
    where: { id: row.id },
    data: {
      name: updated.name,
      headline: updated.creative.headline,
      primaryText: updated.creative.primaryText,
      description: updated.creative.description,
      callToAction: updated.creative.callToAction,
      landingUrl: updated.creative.landingUrl,
    },
  });
  return { ad: toAd(saved) };
}

export const ADS_PER_BUILD = 200;

/** `limit_exceeded` when a build asks for more ads than one call makes. */
export function checkBuildSize(pairs: number): void {
  if (pairs > ADS_PER_BUILD)
    throw new AppError("limit_exceeded", `One call builds at most ${ADS_PER_BUILD} ads; ${pairs} creative x copy pairs were asked for`);
}
