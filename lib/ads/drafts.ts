import type { Principal } from "@/lib/auth/principal";
import { isCreativeVisible } from "@/lib/creatives/list-creatives";
import { getDb } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { newId } from "@/lib/ids";
import type { CallToAction } from "@/lib/platforms/ads-types";
import { toAd, toDraft, type AdOut, type DraftOut } from "./ad-schemas";
import { makeAd, planAd } from "./ads";
import { toAdBuild, type AdBuildOut } from "./ad-builds";
import { invalidArgument, requireAdSet } from "./lookups";

export interface DraftInput {
  id?: string;
  name: string;
  creativeId: string;
  copyVariantId?: string | null;
  adSetId?: string | null;
  callToAction: CallToAction;
  landingUrl: string;
}

/** Saves an ad draft (new, or with `id` replacing that draft's fields); nothing is sent to a platform. */
export async function saveAdDraft(principal: Principal, input: DraftInput): Promise<{ draft: DraftOut; created: boolean }> {
  const db = getDb();
  if (!(await isCreativeVisible(principal, input.creativeId))) throw notFound("Creative");
  if (input.copyVariantId && !(await db.copyVariant.findFirst({ where: { id: input.copyVariantId, workspaceId: principal.workspaceId } }))) {
    throw notFound("Copy variant");
  }
  if (input.adSetId) await requireAdSet(principal, input.adSetId);
  const fields = {
    name: input.name,
    creativeId: input.creativeId,
    copyVariantId: input.copyVariantId ?? null,
    adSetId: input.adSetId ?? null,
    callToAction: input.callToAction,
    landingUrl: input.landingUrl,
  };
  if (input.id) {
    const existing = await db.adDraft.findFirst({ where: { id: input.id, workspaceId: principal.workspaceId } });
    if (!existing) throw notFound("Ad draft");
    if (existing.adId) throw new AppError("conflict", `Ad draft ${input.id} was already launched as ad ${existing.adId}`);
    return { draft: toDraft(await db.adDraft.update({ where: { id: input.id }, data: fields })), created: false };
  }
  const draft = await db.adDraft.create({ data: { id: newId("adraft"), workspaceId: principal.workspaceId, createdById: principal.userId, ...fields } });
  return { draft: toDraft(draft), created: true };
}

export async function listAdDrafts(principal: Principal, input: { launched?: boolean; limit: number; cursor?: string }) {
  const rows = await getDb().adDraft.findMany({
    where: {
      workspaceId: principal.workspaceId,
      ...(input.launched === undefined ? {} : { adId: input.launched ? { not: null } : null }),
      ...afterCursor(input.cursor),
    },
    orderBy: NEWEST_FIRST,
    take: input.limit + 1,
  });
  const page = toPage(rows, input.limit);
  return { drafts: page.items.map(toDraft), nextCursor: page.nextCursor };
}

/** Builds the draft's ad (paused) into its ad set, or `adSetId`; a repeated launch answers the same ad. */
export async function launchAdDraft(
  principal: Principal,
  input: { id: string; adSetId?: string },
): Promise<{ ad: AdOut | null; build: AdBuildOut | null; draft: DraftOut; created: boolean }> {
  const db = getDb();
  const draft = await db.adDraft.findFirst({ where: { id: input.id, workspaceId: principal.workspaceId } });
  if (!draft) throw notFound("Ad draft");
  const adSetId = input.adSetId ?? draft.adSetId;
  if (!adSetId) throw invalidArgument("adSetId: the draft names no ad set; pass the ad set to launch it into");
  const plan = await planAd(principal, {
    adSetId,
    creativeId: draft.creativeId,
    copyVariantId: draft.copyVariantId,
    name: draft.name,
    callToAction: draft.callToAction as CallToAction,
    landingUrl: draft.landingUrl,
    draftId: draft.id,
  });
  const made = await makeAd(principal, plan, { waitOutRateLimits: false });
  // A pending build records the ad on the draft when it is built.
  if (!made.ad) return { ad: null, build: toAdBuild(made.build), draft: toDraft(draft), created: false };
  const saved = await db.adDraft.update({ where: { id: draft.id }, data: { adId: made.ad.id, adSetId } });
  return { ad: toAd(made.ad), build: null, draft: toDraft(saved), created: made.created };
}
