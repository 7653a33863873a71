import { z } from "zod";
import { isoDate, isoDateTime } from "@/lib/iso-time";
import { getAdAccountInfo, listAdAccounts, listAudiences } from "@/lib/ads/accounts";
import {
  AdAccountSchema,
  AdSchema,
  AdSetSchema,
  AdWithTodaySchema,
  AudienceSchema,
  BudgetSchema,
  CallToActionSchema,
  CampaignSchema,
  ClientRefArg,
  DraftSchema,
  LandingUrlArg,
  NameArg,
  ObjectiveSchema,
  PlatformArg,
  StatusSchema,
} from "@/lib/ads/ad-schemas";
import { createAdSet, getAdSet, listAdSets, setAdSetBudget, updateAdSet } from "@/lib/ads/ad-sets";
import { ADS_PER_BUILD, createAd, getAd, listAds, updateAd } from "@/lib/ads/ads";
import { buildAdsFromLibrary, PAIRINGS } from "@/lib/ads/build-from-library";
import { AdBuildSchema } from "@/lib/ads/ad-builds";
import { listCreativePushes, sendCreativeToAdAccount } from "@/lib/media-push/creative-pushes";
import { MediaPushSchema } from "@/lib/media-push/schema";
import { createCampaign, getCampaign, listCampaigns, updateCampaign } from "@/lib/ads/campaigns";
import { launchAdDraft, listAdDrafts, saveAdDraft } from "@/lib/ads/drafts";
import { getAdInsights } from "@/lib/ads/insights";
import { searchLocations } from "@/lib/ads/locations";
import { LOCATION_TYPES } from "@/lib/platforms/ads-types";
import { activateAds, deleteAdSet, deleteAds, deleteCampaign, pauseAds, setAdSetActive, setCampaignActive } from "@/lib/ads/status-changes";
import { defineTool } from "../types";
import { idArg, pageArgs } from "./shared";

const page = pageArgs({ defaultLimit: 50, maxLimit: 200 });
const isoTime = isoDateTime({ offset: true }).describe("ISO 8601 time");
const day = isoDate().describe("YYYY-MM-DD, a day of the ad account's time zone");
const adIds = z.array(idArg("Ad")).min(1).max(100).describe("1 to 100 ad ids");
const copyText = {
  headline: z.string().max(500).nullable().optional().describe("platform_a: up to 255 characters; platform_b: up to 40"),
  primaryText: z.string().max(5000).nullable().optional().describe("platform_a: up to 2200 characters; platform_b: up to 100, required"),
  description: z.string().max(1000).nullable().optional().describe("platform_a: up to 255 characters; platform_b has none"),
};
const Country = z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166 alpha-2 country code such as US or DE");
const LocationId = z.string().regex(/^\d{1,20}$/, "must be a platform_b location id (digits)");
const LocationKey = (what: string) => z.string().regex(/^\d{1,20}$/, `must be a platform_a ${what} key (digits, from search_locations)`);

const CreateAdSetInput = z
  .strictObject({
    campaignId: idArg("Campaign"),
    platform: PlatformArg.describe("The campaign's platform: it decides which targeting fields are required"),
    name: NameArg,
    budget: BudgetSchema,
    startTime: isoTime.optional().describe("When delivery may start (default: now)"),
    endTime: isoTime.optional().describe("When delivery ends; required with a lifetime budget"),
    targetCountries: z.array(Country).min(1).max(25).optional().describe("platform_a (ad sets): ISO 3166 alpha-2 countries; not accepted on platform_b"),
    targetRegions: z
      .array(LocationKey("region"))
      .max(50)
      .optional()
      .describe("platform_a: region keys as search_locations answers them; not accepted on platform_b"),
    targetCities: z
      .array(LocationKey("city"))
      .max(50)
      .optional()
      .describe("platform_a: city keys as search_locations answers them; not accepted on platform_b"),
    locationIds: z
      .array(LocationId)
      .min(1)
      .max(50)
      .optional()
      .describe(
        "Required on platform_b (ad groups): the platform's location ids (countries, regions or cities; search_locations finds them by name); not accepted on platform_a",
      ),
    ageMin: z.number().int().min(13).max(65).optional().describe("platform_a only (default 18)"),
    ageMax: z.number().int().min(13).max(65).optional().describe("platform_a only (default 65)"),
    audienceId: z.string().min(1).max(100).optional().describe("A saved audience (list_audiences)"),
    clientRef: ClientRefArg.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.platform === "platform_a") {
      if (!v.targetCountries?.length && !v.targetRegions?.length && !v.targetCities?.length)
        ctx.addIssue({
          code: "custom",
          path: ["targetCountries"],
          message: 'platform_a ad sets need target countries (ISO 3166 alpha-2 codes, e.g. ["US"]), regions or cities (keys from search_locations)',
        });
      if (v.locationIds)
        ctx.addIssue({
          code: "custom",
          path: ["locationIds"],
          message: "platform_a ad sets target countries, regions and cities (targetCountries, targetRegions, targetCities), not location ids",
        });
    } else {
      if (!v.locationIds)
        ctx.addIssue({ code: "custom", path: ["locationIds"], message: 'platform_b ad groups need location ids (the platform\'s ids, e.g. ["6252001"])' });
      if (v.targetCountries)
        ctx.addIssue({ code: "custom", path: ["targetCountries"], message: "platform_b ad groups target location ids (locationIds), not countries" });
      for (const field of ["targetRegions", "targetCities"] as const)
        if (v[field])
          ctx.addIssue({
            code: "custom",
            path: [field],
            message: "platform_b ad groups target location ids (locationIds): search_locations finds regions and cities",
          });
      if (v.ageMin !== undefined || v.ageMax !== undefined)
        ctx.addIssue({ code: "custom", path: ["ageMin"], message: "platform_b ad groups take no age range" });
    }
    if (v.ageMin !== undefined && v.ageMax !== undefined && v.ageMin > v.ageMax)
      ctx.addIssue({ code: "custom", path: ["ageMin"], message: "must not be above ageMax" });
  });

const BuildRowSchema = z.object({
  creativeId: z.string(),
  copyVariantId: z.string().nullable(),
  name: z.string(),
  problems: z.array(z.string()).describe("The platform's media and text rules this pair breaks (empty: it can be built)"),
  adId: z.string().nullable(),
  created: z.boolean(),
  error: z.object({ code: z.string(), message: z.string() }).nullable().describe("The platform's refusal of this pair"),
  build: AdBuildSchema.nullable().describe(
    "Set while this pair's ad waits for its creative (a large video) to reach the ad account; adId is null until it is built",
  ),
  conceptCreativeIds: z
    .array(z.string())
    .optional()
    .describe("byConcept: the chosen creatives of this ad's concept; the ad uses creativeId, the aspect that fits the platform best"),
});

const AdChangeFailures = z
  .array(z.object({ adId: z.string(), code: z.string(), message: z.string() }))
  .describe("Ads the platform refused to change, each with its error; the other ads were changed (when none was, the call fails with the first error)");

const ActivationSchema = z.object({
  ads: z.array(AdSchema),
  adSetsSwitchedOn: z.array(z.object({ id: z.string(), name: z.string(), platform: z.string(), dailySpendMinor: z.number().int(), currency: z.string() })),
  dailySpendSwitchedOn: z.array(z.object({ currency: z.string(), amountMinor: z.number().int() })).describe("The daily spend this switches on, per currency"),
  dryRun: z.boolean(),
  failed: AdChangeFailures,
});

const read = { category: "ads", capability: "ads.read", readOnly: true, destructive: false } as const;
const write = { category: "ads", capability: "ads.write", readOnly: false, destructive: false } as const;
const launch = { category: "ads", capability: "ads.launch", readOnly: false, destructive: true } as const;
const remove = { category: "ads", capability: "ads.delete", readOnly: false, destructive: true } as const;

export const adTools = [
  defineTool({
    ...read,
    name: "list_ad_accounts",
    title: "List ad accounts",
    description: "Lists the workspace's ad accounts on both platforms with currency, time zone, status and the account's current day.",
    input: z.strictObject({}),
    output: z.object({ accounts: z.array(AdAccountSchema) }),
    handler: listAdAccounts,
  }),
  defineTool({
    ...read,
    name: "get_ad_account",
    title: "Get ad account",
    description: "The workspace's ad account on one platform: currency (budgets are in its minor units), time zone, status.",
    input: z.strictObject({ platform: PlatformArg }),
    output: z.object({ account: AdAccountSchema }),
    handler: getAdAccountInfo,
  }),
  defineTool({
    ...read,
    name: "list_audiences",
    title: "List saved audiences",
    description: "Lists the saved audiences of the workspace's ad account on a platform (usable as an ad set's audienceId).",
    input: z.strictObject({ platform: PlatformArg }),
    output: z.object({ audiences: z.array(AudienceSchema) }),
    handler: listAudiences,
  }),
  defineTool({
    ...read,
    name: "search_locations",
    title: "Search locations by name",
    description:
      "Finds countries, regions and cities by name on the workspace's ad account of the platform (its targeting search), with the ids create_ad_set takes: " +
      "platform_a countries as targetCountries (ISO code), regions as targetRegions, cities as targetCities; platform_b any of them as locationIds.",
    input: z.strictObject({
      platform: PlatformArg,
      query: z.string().trim().min(1).max(100).describe("A place's name or the start of it, e.g. 'Munich' or 'Calif'"),
      types: z.array(z.enum(LOCATION_TYPES)).min(1).max(3).optional().describe("Kinds of place (default: all three)"),
      limit: z.number().int().min(1).max(50).default(10).describe("At most this many places (default 10)"),
    }),
    output: z.object({
      locations: z.array(
        z.object({
          id: z.string().describe("What create_ad_set takes for this place on this platform"),
          type: z.enum(LOCATION_TYPES),
          name: z.string(),
          countryCode: z.string().nullable().describe("ISO 3166 alpha-2 of the place's country"),
          regionName: z.string().nullable().describe("A city's region, when the platform names it"),
          platform: PlatformArg,
        }),
      ),
    }),
    handler: searchLocations,
  }),
  defineTool({
    ...read,
    name: "list_campaigns",
    title: "List campaigns",
    description: "Lists the workspace's campaigns on a platform, newest first (deleted ones only with status: deleted). Paginated.",
    input: z.strictObject({ platform: PlatformArg, status: StatusSchema.optional(), ...page }),
    output: z.object({ campaigns: z.array(CampaignSchema), nextCursor: z.string().nullable() }),
    handler: listCampaigns,
  }),
  defineTool({
    ...read,
    name: "get_campaign",
    title: "Get campaign",
    description: "One campaign of the workspace.",
    input: z.strictObject({ id: idArg("Campaign") }),
    output: z.object({ campaign: CampaignSchema }),
    handler: getCampaign,
  }),
  defineTool({
    ...write,
    name: "create_campaign",
    title: "Create campaign",
    description: "Creates a paused campaign on a platform. Repeating the call with the same clientRef answers the first campaign (created: false).",
    input: z.strictObject({ platform: PlatformArg, name: NameArg, objective: ObjectiveSchema, clientRef: ClientRefArg.optional() }),
    output: z.object({ campaign: CampaignSchema, created: z.boolean() }),
    handler: createCampaign,
  }),
  defineTool({
    ...write,
    name: "update_campaign",
    title: "Update campaign",
    description: "Renames a campaign.",
    input: z.strictObject({ id: idArg("Campaign"), name: NameArg.optional() }),
    output: z.object({ campaign: CampaignSchema }),
    handler: updateCampaign,
  }),
  defineTool({
    ...launch,
    name: "activate_campaign",
    title: "Activate campaign",
    description: "Activates a campaign: its active ad sets and ads start spending.",
    input: z.strictObject({ id: idArg("Campaign") }),
    output: z.object({ campaign: CampaignSchema }),
    handler: (p, i) => setCampaignActive(p, i, true),
  }),
  defineTool({
    ...write,
    name: "pause_campaign",
    title: "Pause campaign",
    description: "Pauses a campaign: nothing in it spends until it is activated again.",
    input: z.strictObject({ id: idArg("Campaign") }),
    output: z.object({ campaign: CampaignSchema }),
    handler: (p, i) => setCampaignActive(p, i, false),
  }),
  defineTool({
    ...remove,
    name: "delete_campaign",
    title: "Delete campaign",
    description: "Deletes a campaign with its ad sets and ads on the platform; cannot be undone.",
    input: z.strictObject({ id: idArg("Campaign") }),
    output: z.object({ ok: z.literal(true) }),
    handler: deleteCampaign,
  }),
  defineTool({
    ...read,
    name: "list_ad_sets",
    title: "List ad sets and ad groups",
    description: "Lists the workspace's ad sets (platform_a) and ad groups (platform_b), newest first; of one campaign when given. Paginated.",
    input: z.strictObject({ campaignId: idArg("Campaign").optional(), status: StatusSchema.optional(), ...page }),
    output: z.object({ adSets: z.array(AdSetSchema), nextCursor: z.string().nullable() }),
    handler: listAdSets,
  }),
  defineTool({
    ...read,
    name: "get_ad_set",
    title: "Get ad set or ad group",
    description: "One ad set (platform_a) or ad group (platform_b).",
    input: z.strictObject({ id: idArg("Ad set") }),
    output: z.object({ adSet: AdSetSchema }),
    handler: getAdSet,
  }),
  defineTool({
    ...write,
    name: "create_ad_set",
    title: "Create ad set or ad group",
    description:
      "Creates a paused ad set (platform_a; targets countries (ISO 3166), regions and/or cities (keys from search_locations)) or ad group (platform_b; requires locationIds, from search_locations) in a campaign, " +
      "with a daily or lifetime budget in the account currency's minor units (minimum per day: platform_a 100, platform_b 2000; lifetime needs endTime).",
    input: CreateAdSetInput,
    output: z.object({ adSet: AdSetSchema, created: z.boolean() }),
    handler: createAdSet,
  }),
  defineTool({
    ...write,
    name: "update_ad_set",
    title: "Update ad set or ad group",
    description:
      "Renames an ad set / ad group or moves its end time (null: no end). Moving the end time changes how long the budget spends, so it needs the launch permission (as set_ad_set_budget). Budgets change with set_ad_set_budget.",
    input: z.strictObject({ id: idArg("Ad set"), name: NameArg.optional(), endTime: isoTime.nullable().optional() }),
    output: z.object({ adSet: AdSetSchema }),
    handler: updateAdSet,
  }),
  defineTool({
    ...launch,
    name: "set_ad_set_budget",
    title: "Change budget",
    description: "Changes an ad set's / ad group's budget (spends money). Minimums per platform as for create_ad_set.",
    input: z.strictObject({ id: idArg("Ad set"), budget: BudgetSchema, endTime: isoTime.nullable().optional() }),
    output: z.object({ adSet: AdSetSchema }),
    handler: setAdSetBudget,
  }),
  defineTool({
    ...launch,
    name: "activate_ad_set",
    title: "Activate ad set or ad group",
    description: "Activates an ad set / ad group: its active ads start spending (when the campaign is active).",
    input: z.strictObject({ id: idArg("Ad set") }),
    output: z.object({ adSet: AdSetSchema }),
    handler: (p, i) => setAdSetActive(p, i, true),
  }),
  defineTool({
    ...write,
    name: "pause_ad_set",
    title: "Pause ad set or ad group",
    description: "Pauses an ad set / ad group.",
    input: z.strictObject({ id: idArg("Ad set") }),
    output: z.object({ adSet: AdSetSchema }),
    handler: (p, i) => setAdSetActive(p, i, false),
  }),
  defineTool({
    ...remove,
    name: "delete_ad_set",
    title: "Delete ad set or ad group",
    description: "Deletes an ad set / ad group with its ads; cannot be undone.",
    input: z.strictObject({ id: idArg("Ad set") }),
    output: z.object({ ok: z.literal(true) }),
    handler: deleteAdSet,
  }),
  defineTool({
    ...read,
    name: "list_ads",
    title: "List ads",
    description:
      "Lists the workspace's ads, newest first, each with today's and the last 7 days' spend, impressions, clicks and conversions; filter by ad set, campaign, platform or status. Paginated.",
    input: z.strictObject({
      adSetId: idArg("Ad set").optional(),
      campaignId: idArg("Campaign").optional(),
      platform: PlatformArg.optional(),
      status: StatusSchema.optional(),
      ...page,
    }),
    output: z.object({ ads: z.array(AdWithTodaySchema), nextCursor: z.string().nullable() }),
    handler: listAds,
  }),
  defineTool({
    ...read,
    name: "get_ad",
    title: "Get ad",
    description: "One ad with today's delivery.",
    input: z.strictObject({ id: idArg("Ad") }),
    output: z.object({ ad: AdWithTodaySchema }),
    handler: getAd,
  }),
  defineTool({
    ...read,
    name: "get_ad_insights",
    title: "Get ad insights",
    description:
      "An ad's daily delivery (impressions, reach, clicks, spend, conversions and their value, frequency) over days of the ad account (default: the last 7).",
    input: z.strictObject({ id: idArg("Ad"), since: day.optional(), until: day.optional() }),
    output: z.object({
      currency: z.string(),
      timeZone: z.string(),
      days: z.array(
        z.object({
          date: z.string(),
          impressions: z.number().int(),
          reach: z.number().int(),
          clicks: z.number().int(),
          spendMinor: z.number().int(),
          conversions: z.number().int(),
          conversionValueMinor: z.number().int(),
          frequency: z.number(),
        }),
      ),
    }),
    handler: getAdInsights,
  }),
  defineTool({
    ...write,
    destructive: true,
    name: "create_ad",
    title: "Create ad",
    description:
      "Creates a paused ad in an ad set from a library creative and one of its copy variants, after checking the platform's media and text rules. " +
      "One ad per (ad set, creative, copy variant): repeating the call answers that ad (created: false). " +
      "A large video not yet on the ad account is sent there first by a background job that builds the ad once the platform has processed it: " +
      "the answer is then ad: null with the pending build (state waiting_for_media); calling again answers the build, then the ad (also announced by ad.created).",
    input: z.strictObject({
      adSetId: idArg("Ad set"),
      creativeId: idArg("Creative"),
      copyVariantId: idArg("Copy variant").nullable().optional(),
      name: NameArg.optional().describe("Default: the file name and the copy's label or headline"),
      callToAction: CallToActionSchema,
      landingUrl: LandingUrlArg,
      leadFormId: z.string().min(1).max(100).nullable().optional().describe("A lead form of the ad account (leads campaigns)"),
    }),
    output: z.object({
      ad: AdSchema.nullable().describe("The ad; null while its build waits for the creative's media (build)"),
      build: AdBuildSchema.nullable(),
      created: z.boolean(),
    }),
    handler: createAd,
  }),
  defineTool({
    ...write,
    name: "update_ad",
    title: "Update ad",
    description: "Changes an ad's name, texts, call to action or landing URL (checked against the platform's rules); null clears a text.",
    input: z.strictObject({
      id: idArg("Ad"),
      name: NameArg.optional(),
      ...copyText,
      callToAction: CallToActionSchema.optional(),
      landingUrl: LandingUrlArg.optional(),
    }),
    output: z.object({ ad: AdSchema }),
    handler: updateAd,
  }),
  defineTool({
    ...launch,
    name: "activate_ads",
    title: "Activate ads",
    description:
      "Activates ads, and their ad sets and campaigns where paused: they start spending. Answers the daily spend switched on; dryRun answers only that, changing nothing.",
    input: z.strictObject({ adIds, dryRun: z.boolean().optional().describe("Only report the daily spend that activation would switch on") }),
    output: ActivationSchema,
    handler: activateAds,
  }),
  defineTool({
    ...write,
    name: "pause_ads",
    title: "Pause ads",
    description: "Pauses ads: they stop spending. Each ad is tried: those the platform refuses are listed in failed, the rest are paused.",
    input: z.strictObject({ adIds }),
    output: z.object({ ads: z.array(AdSchema), failed: AdChangeFailures }),
    handler: pauseAds,
  }),
  defineTool({
    ...remove,
    name: "delete_ads",
    title: "Delete ads",
    description: "Deletes ads on the platform; cannot be undone.",
    input: z.strictObject({ adIds }),
    output: z.object({ deleted: z.number().int(), failed: AdChangeFailures }),
    handler: deleteAds,
  }),
  defineTool({
    ...write,
    name: "send_creative_to_ad_account",
    title: "Send creative to ad account",
    description:
      "Sends a library creative's media to one of the workspace's ad accounts (any platform), in the background: the same creative, never a copy; its copy, review and comments stay with it. " +
      "Large videos go in resumable chunks, then the platform processes them; list_creative_pushes shows the push's state (queued, transferring, processing, ready, failed with the platform's reason). " +
      "Already there or on its way: answers that push (sent: false). Building an ad on an account sends the creative there too.",
    input: z.strictObject({ creativeId: idArg("Creative"), adAccountId: idArg("Ad account") }),
    output: z.object({ push: MediaPushSchema, sent: z.boolean().describe("False when the media was already there or on its way") }),
    handler: sendCreativeToAdAccount,
  }),
  defineTool({
    ...read,
    name: "list_creative_pushes",
    title: "List creative pushes",
    description: "Where a creative's media is: one push per ad account it was sent to, with its state, the platform's media id and chunk progress.",
    input: z.strictObject({ creativeId: idArg("Creative") }),
    output: z.object({ pushes: z.array(MediaPushSchema) }),
    handler: listCreativePushes,
  }),
  defineTool({
    ...write,
    destructive: true,
    name: "build_ads_from_library",
    title: "Build ads from the library",
    description:
      `Builds paused ads into one ad set (at most ${ADS_PER_BUILD} per call). By default (pairing "own") each creative is paired with the chosen copy variants written for it ` +
      '(a creative with none chosen: one ad without copy; a chosen variant of a creative not chosen is refused); pairing "all" pairs every creative with every chosen variant; ' +
      "no copy variants: one ad per creative. " +
      "Every pair is checked against the platform's rules first; dryRun answers the checked matrix without building. " +
      "Repeating the call (e.g. after an interruption) builds only the missing pairs: one ad per pair.",
    input: z.strictObject({
      adSetId: idArg("Ad set"),
      creativeIds: z.array(idArg("Creative")).min(1).max(ADS_PER_BUILD),
      copyVariantIds: z.array(idArg("Copy variant")).max(ADS_PER_BUILD).optional(),
      pairing: z
        .enum(PAIRINGS)
        .optional()
        .describe("own (default): each creative with its own chosen copy variants; all: every creative with every chosen copy variant (all-by-all)"),
      callToAction: CallToActionSchema,
      landingUrl: LandingUrlArg,
      byConcept: z
        .boolean()
        .optional()
        .describe(
          "true: one ad per concept instead of per creative: creatives whose naming-convention labels differ only in aspect (9x16, 4x5, 1x1) are one concept, " +
            "and its ad uses the aspect the ad set's platform fits best (platform_a: 4x5, 1x1, 9x16; platform_b: 9x16 first). Copy variants of any of the concept's creatives go with its ad",
        ),
      dryRun: z.boolean().optional().describe("true: answer the checked pairs and their count without building anything"),
    }),
    output: z.object({
      pairing: z.enum(PAIRINGS),
      pairs: z.number().int().describe("How many ads the build makes (one per row of ads)"),
      ads: z.array(BuildRowSchema),
      created: z.number().int(),
      existing: z.number().int(),
      failed: z.number().int(),
      pending: z.number().int().describe("Pairs whose ads are built in the background once their creative (a large video) reaches the ad account"),
    }),
    handler: buildAdsFromLibrary,
  }),
  defineTool({
    ...write,
    name: "save_ad_draft",
    title: "Save ad draft",
    description:
      "Saves an ad draft (creative, copy variant, optional ad set, call to action, landing URL); with id, replaces that draft. Nothing is sent to a platform.",
    input: z.strictObject({
      id: idArg("Ad draft").optional(),
      name: NameArg,
      creativeId: idArg("Creative"),
      copyVariantId: idArg("Copy variant").nullable().optional(),
      adSetId: idArg("Ad set").nullable().optional(),
      callToAction: CallToActionSchema,
      landingUrl: LandingUrlArg,
    }),
    output: z.object({ draft: DraftSchema, created: z.boolean() }),
    handler: saveAdDraft,
  }),
  defineTool({
    ...read,
    name: "list_ad_drafts",
    title: "List ad drafts",
    description: "Lists ad drafts, newest first; launched: false for those not yet launched. Paginated.",
    input: z.strictObject({ launched: z.boolean().optional(), ...page }),
    output: z.object({ drafts: z.array(DraftSchema), nextCursor: z.string().nullable() }),
    handler: listAdDrafts,
  }),
  defineTool({
    ...write,
    destructive: true,
    name: "launch_ad_draft",
    title: "Launch ad draft",
    description:
      "Builds the draft's ad, paused, into its ad set (or adSetId), checked like create_ad. Launching again answers the same ad. " +
      "A large video not yet on the ad account: ad is null and build pending, as in create_ad; the draft gets its adId when the ad is built.",
    input: z.strictObject({ id: idArg("Ad draft"), adSetId: idArg("Ad set").optional() }),
    output: z.object({ ad: AdSchema.nullable(), build: AdBuildSchema.nullable(), draft: DraftSchema, created: z.boolean() }),
    handler: launchAdDraft,
  }),
];
