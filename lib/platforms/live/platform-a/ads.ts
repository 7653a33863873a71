import { PlatformError } from "../../types";
import type {
  AdCreativeSpec,
  AdPatch,
  AdSetPatch,
  AdSetWrite,
  AdWrite,
  Budget,
  CampaignWrite,
  ObjectPatch,
  Objective,
  PlatformAd,
  PlatformAdSet,
  PlatformAudience,
  PlatformCampaign,
  PlatformLocation,
} from "../../ads-types";
import { LOCATION_TYPES, type LocationType } from "../../ads-types";
import { fromMetaAmount, toMetaAmount } from "./currency";
import { graphBatch, graphGet, graphList, graphPost } from "./graph";
import {
  callToActionName,
  callToActionOf,
  isoTime,
  objectiveName,
  objectiveOf,
  OPTIMIZATION_GOALS,
  refTag,
  statusName,
  statusOf,
  tagged,
  untag,
} from "./naming";

/**
 * Campaigns, ad sets, ad creatives and ads on /act_<id>/... (Marketing API). Everything is created
 * PAUSED; a status change is a POST of `status` to the object; deleting is status DELETED.
 */

export interface MetaAccount {
  /** act_<digits> */
  accountId: string;
  token: string;
  /** The Page ads are published as (object_story_spec.page_id). */
  pageId: string | null;
  /** The account's currency (ISO 4217, as Meta reported it): budgets cross the wire in its offset units (./currency.ts). */
  currency: string;
}

const CAMPAIGN_FIELDS = "id,name,objective,status,created_time";
const AD_SET_FIELDS = "id,name,status,campaign_id,daily_budget,lifetime_budget,start_time,end_time,targeting";
const AD_FIELDS = "id,name,status,adset_id,creative{id,object_story_spec}";

/** An object this account made earlier with this clientRef (its name carries the tag), or null. */
async function findByRef(a: MetaAccount, edge: "campaigns" | "adsets" | "ads", fields: string, clientRef: string): Promise<any | null> {
  const found = await graphList(`${a.accountId}/${edge}`, a.token, {
    fields,
    filtering: [{ field: "name", operator: "CONTAIN", value: refTag(clientRef) }],
  });
  return found.find((o) => untag(o.name).clientRef === clientRef) ?? null;
}

function toCampaign(o: any): PlatformCampaign {
  const { name, clientRef } = untag(o.name);
  return {
    externalId: String(o.id),
    clientRef,
    name,
    objective: objectiveOf(o.objective),
    status: statusOf(o.status),
    createdAt: isoTime(o.created_time) ?? new Date().toISOString(),
  };
}

export async function createCampaign(a: MetaAccount, write: CampaignWrite): Promise<PlatformCampaign> {
  const earlier = await findByRef(a, "campaigns", CAMPAIGN_FIELDS, write.clientRef);
  if (earlier) return toCampaign(earlier);
  const made = await graphPost(`${a.accountId}/campaigns`, a.token, {
    name: tagged(write.name, write.clientRef),
    objective: objectiveName(write.objective),
    status: "PAUSED",
    special_ad_categories: [],
    // Budgets live on the ad sets (ABO); Graph asks to say so explicitly when the campaign has none.
    is_adset_budget_sharing_enabled: false,
  });
  return {
    externalId: String(made.id),
    clientRef: write.clientRef,
    name: write.name,
    objective: write.objective,
    status: "paused",
    createdAt: new Date().toISOString(),
  };
}

/** Applies a patch (POST /<id>) and reads the object back. */
async function patchObject(a: MetaAccount, id: string, params: Record<string, unknown>, fields: string): Promise<any> {
  const batch = [
    ...(Object.keys(params).length ? [{ method: "POST" as const, relativeUrl: id, body: params as any }] : []),
    { method: "GET" as const, relativeUrl: `${id}?fields=${encodeURIComponent(fields)}` },
  ];
  const answers = await graphBatch(a.token, batch);
  return answers[answers.length - 1];
}

function renamed(current: string, next: string | undefined): string | undefined {
  if (next === undefined) return undefined;
  const { clientRef } = untag(current);
  return clientRef ? tagged(next, clientRef) : next;
}

async function currentName(a: MetaAccount, id: string): Promise<string> {
  return String((await graphGet(id, a.token, { fields: "name" })).name ?? "");
}

export async function updateCampaign(a: MetaAccount, id: string, patch: ObjectPatch): Promise<PlatformCampaign> {
  const name = patch.name !== undefined ? renamed(await currentName(a, id), patch.name) : undefined;
  return toCampaign(await patchObject(a, id, { ...(name ? { name } : {}), ...(patch.status ? { status: statusName(patch.status) } : {}) }, CAMPAIGN_FIELDS));
}

/** A budget as Meta takes it: `daily_budget` or `lifetime_budget`, an integer in the currency's offset units. */
function budgetParams(budget: Budget, currency: string): Record<string, string> {
  const amount = String(toMetaAmount(budget.amountMinor, currency));
  return budget.type === "daily" ? { daily_budget: amount } : { lifetime_budget: amount };
}

const keysOf = (places: unknown): string[] => (Array.isArray(places) ? places.map((p: { key?: unknown }) => String(p?.key ?? "")) : []);

/** geo_locations as Meta takes it: countries by ISO code, regions and cities as `{ key }` objects; empty kinds left out. */
function geoLocations(t: { countries: string[]; regions?: string[]; cities?: string[] }): Record<string, unknown> {
  return {
    ...(t.countries.length ? { countries: t.countries } : {}),
    ...(t.regions?.length ? { regions: t.regions.map((key) => ({ key })) } : {}),
    ...(t.cities?.length ? { cities: t.cities.map((key) => ({ key })) } : {}),
  };
}

function toAdSet(o: any, currency: string): PlatformAdSet {
  const { name, clientRef } = untag(o.name);
  const t = o.targeting ?? {};
  const lifetime = fromMetaAmount(Number(o.lifetime_budget ?? 0), currency);
  return {
    externalId: String(o.id),
    clientRef,
    campaignExternalId: String(o.campaign_id),
    name,
    status: statusOf(o.status),
    budget: lifetime > 0 ? { type: "lifetime", amountMinor: lifetime } : { type: "daily", amountMinor: fromMetaAmount(Number(o.daily_budget ?? 0), currency) },
    startTime: isoTime(o.start_time),
    endTime: isoTime(o.end_time),
    targeting: {
      platform: "platform_a",
      countries: t.geo_locations?.countries ?? [],
      regions: keysOf(t.geo_locations?.regions),
      cities: keysOf(t.geo_locations?.cities),
      ageMin: Number(t.age_min ?? 18),
      ageMax: Number(t.age_max ?? 65),
    },
    audienceId: t.custom_audiences?.[0]?.id ? String(t.custom_audiences[0].id) : null,
  };
}

export async function createAdSet(a: MetaAccount, write: AdSetWrite): Promise<PlatformAdSet> {
  if (write.targeting.platform !== "platform_a") throw new PlatformError("invalid_input", "platform_a ad sets target countries", { retryable: false });
  const budget = budgetParams(write.budget, a.currency); // an amount Meta cannot express is refused before any call
  const earlier = await findByRef(a, "adsets", AD_SET_FIELDS, write.clientRef);
  if (earlier) return toAdSet(earlier, a.currency);
  const campaign = await graphGet(write.campaignExternalId, a.token, { fields: "objective" });
  const objective: Objective = objectiveOf(campaign.objective);
  if (objective === "leads" && !a.pageId)
    throw new PlatformError("invalid_input", "platform_a lead ads need the account's Page: reconnect the account and pick a Page", { retryable: false });
  const targeting = {
    geo_locations: geoLocations(write.targeting),
    age_min: write.targeting.ageMin,
    age_max: write.targeting.ageMax,
    ...(write.audienceId ? { custom_audiences: [{ id: write.audienceId }] } : {}),
  };
  const made = await graphPost(`${a.accountId}/adsets`, a.token, {
    name: tagged(write.name, write.clientRef),
    campaign_id: write.campaignExternalId,
    status: "PAUSED",
    ...budget,
    billing_event: "IMPRESSIONS",
    optimization_goal: OPTIMIZATION_GOALS[objective],
    bid_strategy: "LOWEST_COST_WITHOUT_CAP",
    ...(objective === "leads" ? { promoted_object: { page_id: a.pageId } } : {}),
    targeting,
    start_time: write.startTime ?? undefined,
    end_time: write.endTime ?? undefined,
  });
  return {
    externalId: String(made.id),
    clientRef: write.clientRef,
    campaignExternalId: write.campaignExternalId,
    name: write.name,
    status: "paused",
    budget: write.budget,
    startTime: write.startTime,
    endTime: write.endTime,
    targeting: write.targeting,
    audienceId: write.audienceId,
  };
}

export async function updateAdSet(a: MetaAccount, id: string, patch: AdSetPatch): Promise<PlatformAdSet> {
  const budget = patch.budget ? budgetParams(patch.budget, a.currency) : {};
  const name = patch.name !== undefined ? renamed(await currentName(a, id), patch.name) : undefined;
  return toAdSet(
    await patchObject(
      a,
      id,
      {
        ...(name ? { name } : {}),
        ...(patch.status ? { status: statusName(patch.status) } : {}),
        ...budget,
        ...(patch.endTime ? { end_time: patch.endTime } : {}),
      },
      AD_SET_FIELDS,
    ),
    a.currency,
  );
}

/** object_story_spec for a Page post: link_data for an image (by hash), video_data for a video (with its thumbnail). */
async function storySpec(a: MetaAccount, creative: AdCreativeSpec): Promise<object> {
  if (!a.pageId)
    throw new PlatformError("invalid_input", "platform_a ads are published as a Page: reconnect the account and pick the Page (--page PAGE_ID)", {
      retryable: false,
    });
  const callToAction = {
    type: callToActionName(creative.callToAction),
    value: creative.leadFormId ? { lead_gen_form_id: creative.leadFormId, link: creative.landingUrl } : { link: creative.landingUrl },
  };
  if (creative.kind === "video") {
    const video = await graphGet(creative.mediaId, a.token, { fields: "picture" });
    return {
      page_id: a.pageId,
      video_data: {
        video_id: creative.mediaId,
        image_url: video.picture,
        message: creative.primaryText ?? undefined,
        title: creative.headline ?? undefined,
        link_description: creative.description ?? undefined,
        call_to_action: callToAction,
      },
    };
  }
  return {
    page_id: a.pageId,
    link_data: {
      image_hash: creative.mediaId,
      link: creative.landingUrl,
      message: creative.primaryText ?? undefined,
      name: creative.headline ?? undefined,
      description: creative.description ?? undefined,
      call_to_action: callToAction,
    },
  };
}

function creativeOf(spec: any, fallback?: AdCreativeSpec): AdCreativeSpec {
  const link = spec?.link_data;
  const video = spec?.video_data;
  const cta = (link ?? video)?.call_to_action;
  return {
    mediaId: String(link?.image_hash ?? video?.video_id ?? fallback?.mediaId ?? ""),
    kind: video ? "video" : "image",
    headline: (link?.name ?? video?.title ?? null) || null,
    primaryText: (link?.message ?? video?.message ?? null) || null,
    description: (link?.description ?? video?.link_description ?? null) || null,
    callToAction: cta?.type ? callToActionOf(cta.type) : (fallback?.callToAction ?? "learn_more"),
    landingUrl: String(link?.link ?? cta?.value?.link ?? fallback?.landingUrl ?? ""),
    leadFormId: cta?.value?.lead_gen_form_id ? String(cta.value.lead_gen_form_id) : null,
  };
}

function toAd(o: any): PlatformAd {
  const { name, clientRef } = untag(o.name);
  return {
    externalId: String(o.id),
    clientRef,
    adSetExternalId: String(o.adset_id),
    name,
    status: statusOf(o.status),
    creative: creativeOf(o.creative?.object_story_spec),
  };
}

/** The ad creative and the ad in one batch: the ad names the creative by `{result=creative:$.id}`. */
export async function createAd(a: MetaAccount, write: AdWrite): Promise<PlatformAd> {
  const earlier = await findByRef(a, "ads", AD_FIELDS, write.clientRef);
  if (earlier) return toAd(earlier);
  const spec = await storySpec(a, write.creative);
  const [, ad] = await graphBatch(a.token, [
    {
      method: "POST",
      relativeUrl: `${a.accountId}/adcreatives`,
      name: "creative",
      body: { name: tagged(write.name, write.clientRef), object_story_spec: spec },
    },
    {
      method: "POST",
      relativeUrl: `${a.accountId}/ads`,
      body: {
        name: tagged(write.name, write.clientRef),
        adset_id: write.adSetExternalId,
        creative: { creative_id: "{result=creative:$.id}" },
        status: "PAUSED",
      },
    },
  ]);
  return {
    externalId: String(ad.id),
    clientRef: write.clientRef,
    adSetExternalId: write.adSetExternalId,
    name: write.name,
    status: "paused",
    creative: write.creative,
  };
}

/**
 * Name and status change in place. Copy changes need a new ad creative (Meta's creatives are
 * immutable): the current one's spec with the patch applied, then the ad points at it.
 */
export async function updateAd(a: MetaAccount, id: string, patch: AdPatch & { clientRef: string }): Promise<PlatformAd> {
  const current = await graphGet(id, a.token, { fields: AD_FIELDS });
  const params: Record<string, unknown> = {};
  if (patch.name !== undefined) params.name = renamed(current.name, patch.name);
  if (patch.status) params.status = statusName(patch.status);
  if (patch.creative && Object.keys(patch.creative).length) {
    const was = creativeOf(current.creative?.object_story_spec);
    const next: AdCreativeSpec = { ...was, ...patch.creative };
    const made = await graphPost(`${a.accountId}/adcreatives`, a.token, {
      name: tagged(untag(current.name).name, patch.clientRef),
      object_story_spec: await storySpec(a, next),
    });
    params.creative = { creative_id: String(made.id) };
  }
  return toAd(await patchObject(a, id, params, AD_FIELDS));
}

const META_LOCATION_TYPES: Record<LocationType, string> = { country: "country", region: "region", city: "city" };

/**
 * Places by name through the Targeting Search API: GET /search?type=adgeolocation&q=...&location_types=[...].
 * A country's key is its ISO code; a region's or city's key is what geo_locations.regions / cities take.
 */
export async function searchLocations(a: MetaAccount, query: { text: string; types: readonly LocationType[]; limit: number }): Promise<PlatformLocation[]> {
  const answer = await graphGet("search", a.token, {
    type: "adgeolocation",
    q: query.text,
    location_types: query.types.map((t) => META_LOCATION_TYPES[t]),
    limit: query.limit,
  });
  const found: PlatformLocation[] = [];
  for (const o of Array.isArray(answer?.data) ? answer.data : []) {
    const type = (LOCATION_TYPES as readonly string[]).includes(o.type) ? (o.type as LocationType) : null;
    if (!type || !query.types.includes(type) || o.key === undefined) continue;
    found.push({
      id: String(o.key),
      type,
      name: String(o.name ?? o.key),
      countryCode: o.country_code ? String(o.country_code) : null,
      regionName: type === "city" && o.region ? String(o.region) : null,
    });
  }
  return found.slice(0, query.limit);
}

/** The account's custom audiences: the audiences an ad set may target (targeting.custom_audiences). */
export async function listAudiences(a: MetaAccount): Promise<PlatformAudience[]> {
  const audiences = await graphList(`${a.accountId}/customaudiences`, a.token, {
    fields: "id,name,description,approximate_count_lower_bound,approximate_count_upper_bound",
  });
  return audiences.map((o) => ({
    externalId: String(o.id),
    name: String(o.name ?? ""),
    description: String(o.description ?? ""),
    approximateSize: Math.max(0, Number(o.approximate_count_lower_bound ?? 0)),
  }));
}
