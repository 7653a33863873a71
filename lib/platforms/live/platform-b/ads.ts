import { toMajor, toMinor as minorUnits } from "@/lib/money";
import { createHash } from "node:crypto";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { fromPlatformName } from "../../rule-checks";
import { PLATFORM_B_RULES as RULES } from "./rules";
import type {
  AdObjectStatus,
  AdPatch,
  AdSetPatch,
  AdSetWrite,
  AdWrite,
  Budget,
  CallToAction,
  CampaignWrite,
  Objective,
  ObjectPatch,
  PlatformAd,
  PlatformAdSet,
  PlatformAudience,
  PlatformCampaign,
  PlatformLocation,
  LocationType,
} from "../../ads-types";
import { PlatformError } from "../../types";
import { allPages, getData, id, pageInfo, postJson, refusalCode } from "./client";

/**
 * Campaigns, ad groups and ads on TikTok (/campaign|adgroup|ad/create|update|get/, /status/update/,
 * /adgroup/budget/update/), mapped from the neutral AdsApi terms with TikTok's rules (./rules.ts).
 */

/** What every call needs from the connected account. */
export interface TikTokAccount {
  advertiserId: string;
  /** The identity ads are published as (CUSTOMIZED_USER), chosen when connecting. */
  identityId: string | null;
  currency: string;
  /** Scopes `request_id`s to the account. */
  accountId: string;
}

/** Minor units -> TikTok's decimal amounts in the currency (JPY has none, USD two). */
export const toAmount = toMajor;
export const toMinor = (amount: number, currency: string) => minorUnits(amount, currency);

/**
 * TikTok's `request_id` on creates makes a repeated request answer the object the first one made:
 * derived from the account and the caller's clientRef (an int64 as a string).
 */
export function requestIdFor(accountId: string, clientRef: string): string {
  const hex = createHash("sha256").update(`${accountId}:${clientRef}`).digest("hex").slice(0, 15);
  return BigInt(`0x${hex}`).toString();
}

/** "YYYY-MM-DD HH:MM:SS" in UTC+0, as v1.3 schedules take it. */
export function tiktokTime(iso: string | Date): string {
  return new Date(iso).toISOString().slice(0, 19).replace("T", " ");
}
function fromTiktokTime(value: string | null | undefined): string | null {
  if (!value) return null;
  const d = new Date(`${value.replace(" ", "T")}Z`);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

function operationStatus(status: AdObjectStatus): "ENABLE" | "DISABLE" | "DELETE" {
  if (status === "active") return "ENABLE";
  if (status === "paused") return "DISABLE";
  if (status === "deleted") return "DELETE";
  throw new PlatformError("invalid_input", "platform_b cannot archive objects through its API; pause or delete instead", { retryable: false });
}

/** operation_status is ENABLE or DISABLE; a deleted object shows it in its secondary status. */
function statusOf(row: { operation_status?: string; secondary_status?: string }): AdObjectStatus {
  if (row.secondary_status?.includes("DELETE")) return "deleted";
  return row.operation_status === "ENABLE" ? "active" : "paused";
}

const campaignRow = z.object({
  campaign_id: id,
  campaign_name: z.string(),
  objective_type: z.string(),
  operation_status: z.string().optional(),
  secondary_status: z.string().optional(),
  create_time: z.string().optional(),
});
const adGroupRow = z.object({
  adgroup_id: id,
  campaign_id: id,
  adgroup_name: z.string(),
  create_time: z.string().nullish(),
  operation_status: z.string().optional(),
  secondary_status: z.string().optional(),
  budget_mode: z.string(),
  budget: z.coerce.number(),
  schedule_start_time: z.string().nullish(),
  schedule_end_time: z.string().nullish(),
  location_ids: z.array(id).nullish(),
  age_groups: z.array(z.string()).nullish(),
  audience_ids: z.array(id).nullish(),
});
const adRow = z.object({
  ad_id: id,
  adgroup_id: id,
  ad_name: z.string(),
  operation_status: z.string().optional(),
  secondary_status: z.string().optional(),
  ad_format: z.string().optional(),
  image_ids: z.array(id).nullish(),
  video_id: id.nullish(),
  ad_text: z.string().nullish(),
  call_to_action: z.string().nullish(),
  landing_page_url: z.string().nullish(),
});
const listOf = <T extends z.ZodType>(row: T) => z.object({ list: z.array(row), page_info: pageInfo.optional() });

function toCampaign(row: z.infer<typeof campaignRow>, clientRef: string): PlatformCampaign {
  return {
    externalId: row.campaign_id,
    clientRef,
    name: row.campaign_name,
    objective: fromPlatformName(RULES.objectiveNames, row.objective_type) ?? "traffic",
    status: statusOf(row),
    createdAt: fromTiktokTime(row.create_time) ?? new Date().toISOString(),
  };
}

function toAdSet(row: z.infer<typeof adGroupRow>, clientRef: string, currency: string): PlatformAdSet {
  return {
    externalId: row.adgroup_id,
    clientRef,
    campaignExternalId: row.campaign_id,
    name: row.adgroup_name,
    status: statusOf(row),
    budget: { type: row.budget_mode === "BUDGET_MODE_TOTAL" ? "lifetime" : "daily", amountMinor: toMinor(row.budget, currency) },
    startTime: fromTiktokTime(row.schedule_start_time),
    endTime: fromTiktokTime(row.schedule_end_time),
    targeting: { platform: "platform_b", locationIds: row.location_ids ?? [], ageGroups: row.age_groups ?? [] },
    audienceId: row.audience_ids?.[0] ?? null,
  };
}

function toAd(row: z.infer<typeof adRow>, clientRef: string): PlatformAd {
  const video = row.ad_format === "SINGLE_VIDEO" || (!!row.video_id && !row.image_ids?.length);
  return {
    externalId: row.ad_id,
    clientRef,
    adSetExternalId: row.adgroup_id,
    name: row.ad_name,
    status: statusOf(row),
    creative: {
      mediaId: (video ? row.video_id : row.image_ids?.[0]) ?? "",
      kind: video ? "video" : "image",
      headline: null,
      primaryText: row.ad_text ?? null,
      description: null,
      callToAction: (row.call_to_action && fromPlatformName<CallToAction>(RULES.callToActionNames, row.call_to_action)) || "learn_more",
      landingUrl: row.landing_page_url ?? "",
      leadFormId: null,
    },
  };
}

/**
 * One object by id. The get endpoints leave deleted objects out unless `primary_status` is STATUS_ALL
 * (their default is STATUS_NOT_DELETE), and a deleted object is still read back after its delete.
 */
async function getOne<T>(token: string, path: string, advertiserId: string, filtering: Record<string, string[]>, row: z.ZodType<T>, what: string): Promise<T> {
  const { list } = await getData(
    token,
    path,
    { advertiser_id: advertiserId, filtering: { ...filtering, primary_status: "STATUS_ALL" }, page: 1, page_size: 10 },
    listOf(row),
    what,
  );
  const found = list[0];
  if (!found)
    throw new PlatformError("invalid_input", `platform_b has no ${what} ${Object.values(filtering)[0]?.[0]} on advertiser ${advertiserId}`, {
      retryable: false,
    });
  return found;
}

export const readCampaign = (token: string, a: TikTokAccount, campaignId: string) =>
  getOne(token, "campaign/get/", a.advertiserId, { campaign_ids: [campaignId] }, campaignRow, "campaign");
const readAdGroup = (token: string, a: TikTokAccount, adGroupId: string) =>
  getOne(token, "adgroup/get/", a.advertiserId, { adgroup_ids: [adGroupId] }, adGroupRow, "ad group");
const readAd = (token: string, a: TikTokAccount, adId: string) => getOne(token, "ad/get/", a.advertiserId, { ad_ids: [adId] }, adRow, "ad");

/** Every ad of the advertiser (page_info paging), optionally only some ad groups'. */
export async function listAllAds(token: string, a: TikTokAccount, filtering: Record<string, string[]> = {}) {
  return allPages((page) => getData(token, "ad/get/", { advertiser_id: a.advertiserId, filtering, page, page_size: 100 }, listOf(adRow), "the ad list"));
}
export async function listAllAdGroups(token: string, a: TikTokAccount) {
  return allPages((page) => getData(token, "adgroup/get/", { advertiser_id: a.advertiserId, page, page_size: 100 }, listOf(adGroupRow), "the ad group list"));
}

async function setStatus(token: string, a: TikTokAccount, level: "campaign" | "adgroup" | "ad", externalId: string, status: AdObjectStatus) {
  const ids = level === "campaign" ? "campaign_ids" : level === "adgroup" ? "adgroup_ids" : "ad_ids";
  await postJson(
    token,
    `${level}/status/update/`,
    { advertiser_id: a.advertiserId, [ids]: [externalId], operation_status: operationStatus(status) },
    z.unknown(),
    `the ${level === "adgroup" ? "ad group" : level} status change`,
  );
}

// ---- campaigns

/** TikTok's DUPLICATED_REQUEST: a create repeated with a request_id that already succeeded ("only one request succeeds"). */
const DUPLICATED_REQUEST = 40050;

/**
 * The object an earlier create with the same request_id made, found by its exact name (the get endpoints
 * match names loosely), the newest first; null when there is none.
 */
async function madeEarlier<T extends { create_time?: string | null }>(
  token: string,
  path: string,
  a: TikTokAccount,
  filtering: Record<string, unknown>,
  row: z.ZodType<T>,
  sameName: (r: T) => boolean,
  what: string,
): Promise<T | null> {
  const rows = await allPages((page) => getData(token, path, { advertiser_id: a.advertiserId, filtering, page, page_size: 100 }, listOf(row), what), 5);
  return rows.filter(sameName).sort((x, y) => (y.create_time ?? "").localeCompare(x.create_time ?? ""))[0] ?? null;
}

/** A create carrying a request_id; when TikTok refuses it as a repeat, the object the first one made. */
async function createOnce<T>(create: () => Promise<T>, earlier: () => Promise<T | null>): Promise<T> {
  try {
    return await create();
  } catch (err) {
    if (refusalCode(err) !== DUPLICATED_REQUEST) throw err;
    const found = await earlier();
    if (!found) throw err;
    return found;
  }
}

export async function createCampaign(token: string, a: TikTokAccount, write: CampaignWrite): Promise<PlatformCampaign> {
  const objectiveType = RULES.objectiveNames[write.objective];
  const made = await createOnce(
    () =>
      postJson(
        token,
        "campaign/create/",
        {
          advertiser_id: a.advertiserId,
          campaign_name: write.name,
          objective_type: objectiveType,
          // Budgets live on the ad groups (as on the other platform's ad sets).
          budget_mode: "BUDGET_MODE_INFINITE",
          operation_status: "DISABLE",
          request_id: requestIdFor(a.accountId, write.clientRef),
        },
        z.object({ campaign_id: id }),
        "the campaign create",
      ),
    () =>
      madeEarlier(
        token,
        "campaign/get/",
        a,
        { campaign_name: write.name },
        campaignRow,
        (r) => r.campaign_name === write.name && r.objective_type === objectiveType,
        "the campaign list",
      ),
  );
  return {
    externalId: made.campaign_id,
    clientRef: write.clientRef,
    name: write.name,
    objective: write.objective,
    status: "paused",
    createdAt: new Date().toISOString(),
  };
}

export async function updateCampaign(
  token: string,
  a: TikTokAccount,
  campaignId: string,
  patch: ObjectPatch & { clientRef: string },
): Promise<PlatformCampaign> {
  if (patch.name !== undefined) {
    await postJson(
      token,
      "campaign/update/",
      { advertiser_id: a.advertiserId, campaign_id: campaignId, campaign_name: patch.name },
      z.unknown(),
      "the campaign update",
    );
  }
  if (patch.status !== undefined) await setStatus(token, a, "campaign", campaignId, patch.status);
  return toCampaign(await readCampaign(token, a, campaignId), patch.clientRef);
}

// ---- ad groups

/** What TikTok optimizes and bills per objective (lowest-cost bidding). */
const DELIVERY: Record<Objective, { optimization_goal: string; billing_event: string; promotion_type: string }> = {
  traffic: { optimization_goal: "CLICK", billing_event: "CPC", promotion_type: "WEBSITE" },
  sales: { optimization_goal: "CONVERT", billing_event: "OCPM", promotion_type: "WEBSITE" },
  leads: { optimization_goal: "LEAD_GENERATION", billing_event: "OCPM", promotion_type: "LEAD_GENERATION" },
  awareness: { optimization_goal: "REACH", billing_event: "CPM", promotion_type: "WEBSITE" },
  engagement: { optimization_goal: "CLICK", billing_event: "CPC", promotion_type: "WEBSITE" },
};

function budgetFields(budget: Budget, currency: string) {
  return { budget_mode: budget.type === "lifetime" ? "BUDGET_MODE_TOTAL" : "BUDGET_MODE_DAY", budget: toAmount(budget.amountMinor, currency) };
}

export async function createAdSet(token: string, a: TikTokAccount, write: AdSetWrite): Promise<PlatformAdSet> {
  const targeting = write.targeting;
  if (targeting.platform !== "platform_b") throw new PlatformError("invalid_input", "platform_b ad groups target location ids", { retryable: false });
  const campaign = await readCampaign(token, a, write.campaignExternalId);
  const objective = fromPlatformName(RULES.objectiveNames, campaign.objective_type) ?? "traffic";
  const start = write.startTime ?? new Date().toISOString();
  const made = await createOnce(
    () =>
      postJson(
        token,
        "adgroup/create/",
        {
          advertiser_id: a.advertiserId,
          campaign_id: write.campaignExternalId,
          adgroup_name: write.name,
          placement_type: "PLACEMENT_TYPE_NORMAL",
          placements: ["PLACEMENT_TIKTOK"],
          location_ids: targeting.locationIds,
          ...(targeting.ageGroups.length ? { age_groups: targeting.ageGroups } : {}),
          ...(write.audienceId ? { audience_ids: [write.audienceId] } : {}),
          ...budgetFields(write.budget, a.currency),
          schedule_type: write.endTime ? "SCHEDULE_START_END" : "SCHEDULE_FROM_NOW",
          schedule_start_time: tiktokTime(start),
          ...(write.endTime ? { schedule_end_time: tiktokTime(write.endTime) } : {}),
          ...DELIVERY[objective],
          bid_type: "BID_TYPE_NO_BID",
          pacing: "PACING_MODE_SMOOTH",
          operation_status: "DISABLE",
          request_id: requestIdFor(a.accountId, write.clientRef),
        },
        z.object({ adgroup_id: id }),
        "the ad group create",
      ),
    () =>
      madeEarlier(
        token,
        "adgroup/get/",
        a,
        { campaign_ids: [write.campaignExternalId], adgroup_name: write.name },
        adGroupRow,
        (r) => r.adgroup_name === write.name,
        "the ad group list",
      ),
  );
  return {
    externalId: made.adgroup_id,
    clientRef: write.clientRef,
    campaignExternalId: write.campaignExternalId,
    name: write.name,
    status: "paused",
    budget: write.budget,
    startTime: start,
    endTime: write.endTime,
    targeting: write.targeting,
    audienceId: write.audienceId,
  };
}

export async function updateAdSet(token: string, a: TikTokAccount, adGroupId: string, patch: AdSetPatch & { clientRef: string }): Promise<PlatformAdSet> {
  if (patch.name !== undefined || patch.endTime !== undefined) {
    await postJson(
      token,
      "adgroup/update/",
      {
        advertiser_id: a.advertiserId,
        adgroup_id: adGroupId,
        ...(patch.name !== undefined ? { adgroup_name: patch.name } : {}),
        ...(patch.endTime ? { schedule_end_time: tiktokTime(patch.endTime) } : {}),
      },
      z.unknown(),
      "the ad group update",
    );
  }
  if (patch.budget) {
    const current = await readAdGroup(token, a, adGroupId);
    const mode = patch.budget.type === "lifetime" ? "BUDGET_MODE_TOTAL" : "BUDGET_MODE_DAY";
    if (current.budget_mode !== mode) {
      throw new PlatformError("invalid_input", `platform_b cannot change an ad group's budget mode (it is ${current.budget_mode}); change the amount only`, {
        retryable: false,
      });
    }
    await postJson(
      token,
      "adgroup/budget/update/",
      { advertiser_id: a.advertiserId, budget: [{ adgroup_id: adGroupId, budget: toAmount(patch.budget.amountMinor, a.currency) }] },
      z.unknown(),
      "the ad group budget update",
    );
  }
  if (patch.status !== undefined) await setStatus(token, a, "adgroup", adGroupId, patch.status);
  return toAdSet(await readAdGroup(token, a, adGroupId), patch.clientRef, a.currency);
}

// ---- ads

const identities = z.object({ identity_list: z.array(z.object({ identity_id: id, identity_type: z.string().optional() })).default([]) });

/**
 * The identity ads are published as: the one chosen when connecting, else the advertiser's first custom
 * identity (/identity/get/, CUSTOMIZED_USER), kept on the account so accounts connected by OAuth work too.
 */
export async function identityOf(token: string, a: TikTokAccount): Promise<string> {
  if (a.identityId) return a.identityId;
  const { identity_list } = await getData(
    token,
    "identity/get/",
    { advertiser_id: a.advertiserId, identity_type: "CUSTOMIZED_USER", page: 1, page_size: 100 },
    identities,
    "the identity list",
  );
  const found = identity_list[0]?.identity_id;
  if (!found) {
    throw new PlatformError(
      "invalid_input",
      "platform_b ads are published as an identity and this advertiser has none: create a custom identity in TikTok Ads Manager, or connect the account again with --identity",
      { retryable: false },
    );
  }
  await getDb().adAccount.updateMany({ where: { id: a.accountId, identityId: null }, data: { identityId: found } });
  a.identityId = found;
  return found;
}

async function creativeFields(token: string, a: TikTokAccount, name: string, creative: AdWrite["creative"]) {
  return {
    ad_name: name,
    identity_type: "CUSTOMIZED_USER",
    identity_id: await identityOf(token, a),
    ad_format: creative.kind === "video" ? "SINGLE_VIDEO" : "SINGLE_IMAGE",
    ...(creative.kind === "video" ? { video_id: creative.mediaId } : { image_ids: [creative.mediaId] }),
    ad_text: creative.primaryText ?? "",
    call_to_action: RULES.callToActionNames[creative.callToAction] ?? "LEARN_MORE",
    landing_page_url: creative.landingUrl,
  };
}

export async function createAd(token: string, a: TikTokAccount, write: AdWrite): Promise<PlatformAd> {
  // /ad/create/ takes no request_id: a re-run finds the ad it made by name and media in its ad group.
  const existing = (await listAllAds(token, a, { adgroup_ids: [write.adSetExternalId] })).find(
    (ad) => ad.ad_name === write.name && (ad.video_id === write.creative.mediaId || ad.image_ids?.includes(write.creative.mediaId)),
  );
  if (existing) return toAd(existing, write.clientRef);
  const made = await postJson(
    token,
    "ad/create/",
    {
      advertiser_id: a.advertiserId,
      adgroup_id: write.adSetExternalId,
      // operation_status is a creative's field on /ad/create/ (default ENABLE), not the request's.
      creatives: [{ ...(await creativeFields(token, a, write.name, write.creative)), operation_status: "DISABLE" }],
    },
    z.object({ ad_ids: z.array(id).min(1) }),
    "the ad create",
  );
  return {
    externalId: made.ad_ids[0]!,
    clientRef: write.clientRef,
    adSetExternalId: write.adSetExternalId,
    name: write.name,
    status: "paused",
    creative: write.creative,
  };
}

export async function updateAd(token: string, a: TikTokAccount, adId: string, patch: AdPatch & { clientRef: string }): Promise<PlatformAd> {
  if (patch.name !== undefined || patch.creative) {
    // /ad/update/ replaces the creative: send the current one with the changes.
    const current = toAd(await readAd(token, a, adId), patch.clientRef);
    const creative = { ...current.creative, ...patch.creative };
    await postJson(
      token,
      "ad/update/",
      {
        advertiser_id: a.advertiserId,
        adgroup_id: current.adSetExternalId,
        creatives: [{ ad_id: adId, ...(await creativeFields(token, a, patch.name ?? current.name, creative)) }],
      },
      z.unknown(),
      "the ad update",
    );
  }
  if (patch.status !== undefined) await setStatus(token, a, "ad", adId, patch.status);
  return toAd(await readAd(token, a, adId), patch.clientRef);
}

// ---- audiences

const audienceRow = z.object({ audience_id: id, name: z.string(), cover_num: z.coerce.number().nullish() });

export async function listAudiences(token: string, a: TikTokAccount): Promise<PlatformAudience[]> {
  const rows = await allPages((page) =>
    getData(token, "dmp/custom_audience/list/", { advertiser_id: a.advertiserId, page, page_size: 100 }, listOf(audienceRow), "the audience list"),
  );
  return rows.map((r) => ({ externalId: r.audience_id, name: r.name, description: "", approximateSize: r.cover_num ?? 0 }));
}

// ---- locations

/** TikTok's geo types for ours: a province is a region; a city (or county) is a city. */
const GEO_TYPES: Record<LocationType, string> = { country: "COUNTRY", region: "PROVINCE", city: "CITY" };
const OUR_TYPE: Record<string, LocationType> = { COUNTRY: "country", PROVINCE: "region", CITY: "city" };

const targetingTag = z.object({
  name: z.string(),
  status_info: z.object({ status: z.string().nullish() }).nullish(),
  geo: z.object({ geo_id: id, geo_type: z.string(), region_code: z.string().nullish(), description: z.string().nullish() }).nullish(),
});

/**
 * Places by name through /tool/targeting/search/ (POST, FUZZY_SEARCH with one keyword): its geo_id is the
 * location id an ad group's location_ids take. The search needs an objective and placements; a reach
 * objective on TikTok's own placement asks for the widest set of places (no promotion_type needed).
 * Tags TikTok marks DISABLED cannot be targeted and are left out.
 */
export async function searchLocations(
  token: string,
  a: TikTokAccount,
  query: { text: string; types: readonly LocationType[]; limit: number },
): Promise<PlatformLocation[]> {
  const data = await postJson(
    token,
    "tool/targeting/search/",
    {
      advertiser_id: a.advertiserId,
      objective_type: "REACH",
      placements: ["PLACEMENT_TIKTOK"],
      search_type: "FUZZY_SEARCH",
      keywords: [query.text],
      geo_types: query.types.map((t) => GEO_TYPES[t]),
    },
    z.object({ targeting_tag_list: z.array(targetingTag).nullish() }),
    "the location search",
  );
  const found: PlatformLocation[] = [];
  for (const tag of data.targeting_tag_list ?? []) {
    const type = tag.geo ? OUR_TYPE[tag.geo.geo_type] : undefined;
    if (!tag.geo || !type || !query.types.includes(type) || tag.status_info?.status === "DISABLED") continue;
    found.push({ id: tag.geo.geo_id, type, name: tag.name, countryCode: tag.geo.region_code ?? null, regionName: null });
  }
  return found.slice(0, query.limit);
}
