import { z } from "zod";
import { AD_OBJECT_STATUSES, CALLS_TO_ACTION, OBJECTIVES } from "@/lib/platforms/ads-types";
import type { Ad, AdCampaign, AdDraft, AdSet } from "@/lib/generated/prisma/client";

/** Zod schemas of the ads domain: tool arguments and results are written once, here. */

export const PlatformArg = z.enum(["platform_a", "platform_b"]).describe("The ad platform: platform_a or platform_b");
export const StatusSchema = z.enum(AD_OBJECT_STATUSES);
export const ObjectiveSchema = z.enum(OBJECTIVES).describe("What the campaign optimizes for; docs/platforms.md maps it to each platform's name");
export const CallToActionSchema = z.enum(CALLS_TO_ACTION).describe("The ad's button; platform_a and platform_b each offer a subset (docs/platforms.md)");
export const NameArg = z.string().trim().min(1).max(200);
export const ClientRefArg = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9._:-]+$/, "letters, digits and . _ : - only")
  .describe("Your reference for this object: repeating a create with the same clientRef answers the object made the first time");
export const LandingUrlArg = z
  .string()
  .max(2000)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), "must be an http(s) URL")
  .describe("Where the ad leads (http or https)");

export const BudgetSchema = z
  .strictObject({
    type: z.enum(["daily", "lifetime"]).describe("daily: per day of the account's time zone; lifetime: over the schedule (needs endTime)"),
    amountMinor: z
      .number()
      .int()
      .min(1)
      .max(1_000_000_000)
      .describe("In the ad account currency's minor units (cents). Minimum per day: platform_a 100, platform_b 2000"),
  })
  .describe("The ad set's / ad group's budget");

export const CampaignSchema = z.object({
  id: z.string(),
  platform: PlatformArg,
  name: z.string(),
  objective: ObjectiveSchema,
  status: StatusSchema,
  externalId: z.string().describe("The platform's campaign id"),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CampaignOut = z.input<typeof CampaignSchema>;

export const AdSetSchema = z.object({
  id: z.string(),
  campaignId: z.string(),
  platform: PlatformArg,
  kind: z.enum(["ad_set", "ad_group"]).describe("platform_a calls it an ad set, platform_b an ad group"),
  name: z.string(),
  status: StatusSchema,
  budget: z.object({ type: z.enum(["daily", "lifetime"]), amountMinor: z.number().int() }),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  targetCountries: z.array(z.string()).nullable().describe("platform_a: ISO 3166 alpha-2 countries"),
  targetRegions: z.array(z.string()).nullable().describe("platform_a: region keys (search_locations)"),
  targetCities: z.array(z.string()).nullable().describe("platform_a: city keys (search_locations)"),
  locationIds: z.array(z.string()).nullable().describe("platform_b: location ids"),
  locationNames: z
    .record(z.string(), z.string())
    .describe("Names of the targeted region, city and location ids, as search_locations named them (an id it never answered is absent)"),
  ageMin: z.number().int().nullable(),
  ageMax: z.number().int().nullable(),
  audienceId: z.string().nullable(),
  externalId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdSetOut = z.input<typeof AdSetSchema>;

export const TodaySchema = z
  .object({ date: z.string(), spendMinor: z.number().int(), impressions: z.number().int(), clicks: z.number().int(), conversions: z.number().int() })
  .describe("Delivery so far today (the ad account's day)");

export const AdSchema = z.object({
  id: z.string(),
  campaignId: z.string(),
  adSetId: z.string(),
  platform: PlatformArg,
  name: z.string(),
  status: StatusSchema,
  creativeId: z.string(),
  copyVariantId: z.string().nullable(),
  headline: z.string().nullable(),
  primaryText: z.string().nullable(),
  description: z.string().nullable(),
  callToAction: CallToActionSchema,
  landingUrl: z.string(),
  leadFormId: z.string().nullable(),
  draftId: z.string().nullable(),
  externalId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdOut = z.input<typeof AdSchema>;

export const AdWithTodaySchema = AdSchema.extend({
  today: TodaySchema.nullable(),
  last7Days: z
    .object({ since: z.string(), spendMinor: z.number().int(), impressions: z.number().int(), clicks: z.number().int(), conversions: z.number().int() })
    .nullable()
    .describe("Delivery over the account's last 7 days, today included"),
});

export const DraftSchema = z.object({
  id: z.string(),
  name: z.string(),
  adSetId: z.string().nullable(),
  creativeId: z.string(),
  copyVariantId: z.string().nullable(),
  callToAction: CallToActionSchema,
  landingUrl: z.string(),
  adId: z.string().nullable().describe("The ad built from the draft, once launched"),
  createdAt: z.string(),
});
export type DraftOut = z.input<typeof DraftSchema>;

export const AdAccountSchema = z.object({
  id: z.string(),
  platform: PlatformArg,
  mode: z.enum(["sandbox", "live"]),
  externalAccountId: z.string(),
  name: z.string(),
  currency: z.string(),
  timeZone: z.string(),
  status: z.enum(["active", "disabled", "pending_settlement"]),
  today: z.string().describe("The account's current day (YYYY-MM-DD)"),
});

export const AudienceSchema = z.object({ id: z.string(), name: z.string(), description: z.string(), approximateSize: z.number().int() });

export const toCampaign = (r: AdCampaign): CampaignOut => ({
  id: r.id,
  platform: r.platform,
  name: r.name,
  objective: r.objective as CampaignOut["objective"],
  status: r.status as CampaignOut["status"],
  externalId: r.externalId,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const nameMap = (v: unknown): Record<string, string> =>
  v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([, n]) => typeof n === "string")) : {};

export const toAdSet = (r: AdSet): AdSetOut => ({
  id: r.id,
  campaignId: r.campaignId,
  platform: r.platform,
  kind: r.platform === "platform_a" ? "ad_set" : "ad_group",
  name: r.name,
  status: r.status as AdSetOut["status"],
  budget: { type: r.budgetType as "daily" | "lifetime", amountMinor: r.budgetMinor },
  startTime: r.startTime?.toISOString() ?? null,
  endTime: r.endTime?.toISOString() ?? null,
  targetCountries: r.platform === "platform_a" ? r.targetCountries : null,
  targetRegions: r.platform === "platform_a" ? r.targetRegions : null,
  targetCities: r.platform === "platform_a" ? r.targetCities : null,
  locationIds: r.platform === "platform_b" ? r.locationIds : null,
  locationNames: nameMap(r.locationNames),
  ageMin: r.ageMin,
  ageMax: r.ageMax,
  audienceId: r.audienceId,
  externalId: r.externalId,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

export const toAd = (r: Ad): AdOut => ({
  id: r.id,
  campaignId: r.campaignId,
  adSetId: r.adSetId,
  platform: r.platform,
  name: r.name,
  status: r.status as AdOut["status"],
  creativeId: r.creativeId,
  copyVariantId: r.copyVariantId,
  headline: r.headline,
  primaryText: r.primaryText,
  description: r.description,
  callToAction: r.callToAction as AdOut["callToAction"],
  landingUrl: r.landingUrl,
  leadFormId: r.leadFormId,
  draftId: r.draftId,
  externalId: r.externalId,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

export const toDraft = (r: AdDraft): DraftOut => ({
  id: r.id,
  name: r.name,
  adSetId: r.adSetId,
  creativeId: r.creativeId,
  copyVariantId: r.copyVariantId,
  callToAction: r.callToAction as DraftOut["callToAction"],
  landingUrl: r.landingUrl,
  adId: r.adId,
  createdAt: r.createdAt.toISOString(),
});
