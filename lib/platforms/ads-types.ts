import type { MediaKind, Platform } from "@/lib/generated/prisma/enums";
import type { AdAccountRef } from "./types";

/**
 * The ad side of a platform, in neutral terms. Each adapter maps these to its platform's own
 * names (objectives, calls to action, statuses); docs/platforms.md has the table per platform.
 *
 * Every write carries a `clientRef`: the caller's reference for the object. A create repeated
 * with a clientRef the account already used answers the object made the first time, so a step
 * that re-runs after a crash never makes a second campaign, ad set or ad.
 *
 * Money is always an integer in the account currency's minor units (cents for USD).
 */

export type AdObjectStatus = "paused" | "active" | "archived" | "deleted";
export const AD_OBJECT_STATUSES = ["paused", "active", "archived", "deleted"] as const satisfies readonly AdObjectStatus[];

export const OBJECTIVES = ["traffic", "sales", "leads", "awareness", "engagement"] as const;
export type Objective = (typeof OBJECTIVES)[number];

export const CALLS_TO_ACTION = ["learn_more", "shop_now", "sign_up", "download", "contact_us", "book_now", "get_offer", "apply_now", "subscribe"] as const;
export type CallToAction = (typeof CALLS_TO_ACTION)[number];

export type BudgetType = "daily" | "lifetime";
export interface Budget {
  type: BudgetType;
  /** Account currency, minor units. */
  amountMinor: number;
}

/**
 * Where an ad set delivers. Platform A targets ISO 3166 countries and its own region and city keys
 * (geo_locations.regions / cities); platform B targets its own location ids (countries, regions and cities alike).
 */
export type Targeting =
  | { platform: "platform_a"; countries: string[]; regions?: string[]; cities?: string[]; ageMin: number; ageMax: number }
  | { platform: "platform_b"; locationIds: string[]; ageGroups: string[] };

export const LOCATION_TYPES = ["country", "region", "city"] as const;
export type LocationType = (typeof LOCATION_TYPES)[number];

/** A place the platform's targeting search found: its id is what an ad set targets. */
export interface PlatformLocation {
  /** Platform A: the ISO code of a country, the key of a region or city; platform B: the location id. */
  id: string;
  type: LocationType;
  name: string;
  /** ISO 3166 alpha-2 of the country the place is in. */
  countryCode: string | null;
  /** The region a city is in, when the platform names it. */
  regionName: string | null;
}

export interface PlatformAccountInfo {
  externalAccountId: string;
  name: string;
  /** ISO 4217. */
  currency: string;
  /** IANA zone; a day of insights and a daily budget are days in this zone. */
  timeZone: string;
  status: "active" | "disabled" | "pending_settlement";
  /** The platform's clock (ISO 8601): wall-clock time for a real platform, simulated time for the sandbox. */
  now: string;
  /** The current day in the account's time zone (YYYY-MM-DD). */
  today: string;
}

export interface PlatformCampaign {
  externalId: string;
  clientRef: string;
  name: string;
  objective: Objective;
  status: AdObjectStatus;
  createdAt: string;
}

export interface CampaignWrite {
  clientRef: string;
  name: string;
  objective: Objective;
  /** New objects are created paused; only an explicit status change turns spending on. */
  status: "paused";
}

export interface PlatformAdSet {
  externalId: string;
  clientRef: string;
  campaignExternalId: string;
  name: string;
  status: AdObjectStatus;
  budget: Budget;
  startTime: string | null;
  endTime: string | null;
  targeting: Targeting;
  audienceId: string | null;
}

export interface AdSetWrite {
  clientRef: string;
  campaignExternalId: string;
  name: string;
  status: "paused";
  budget: Budget;
  startTime: string | null;
  endTime: string | null;
  targeting: Targeting;
  audienceId: string | null;
}

export interface AdCreativeSpec {
  /** The platform's media id (platform A image hash or video id, platform B image or video id). */
  mediaId: string;
  kind: MediaKind;
  headline: string | null;
  primaryText: string | null;
  description: string | null;
  callToAction: CallToAction;
  landingUrl: string;
  /** A lead form of the account (lead objectives). */
  leadFormId: string | null;
}

export interface PlatformAd {
  externalId: string;
  clientRef: string;
  adSetExternalId: string;
  name: string;
  status: AdObjectStatus;
  creative: AdCreativeSpec;
}

export interface AdWrite {
  clientRef: string;
  adSetExternalId: string;
  name: string;
  status: "paused";
  creative: AdCreativeSpec;
}

/** Fields a status or settings change may carry; absent fields stay. */
export interface ObjectPatch {
  name?: string;
  status?: AdObjectStatus;
}
export interface AdSetPatch extends ObjectPatch {
  budget?: Budget;
  endTime?: string | null;
}
export interface AdPatch extends ObjectPatch {
  creative?: Partial<Pick<AdCreativeSpec, "headline" | "primaryText" | "description" | "callToAction" | "landingUrl">>;
}

export interface PlatformAudience {
  externalId: string;
  name: string;
  description: string;
  /** Estimated people reachable. */
  approximateSize: number;
}

/**
 * One ad's delivery on one day of the account's time zone. The current day is partial and
 * grows as the platform delivers; a rollup can re-read it every hour.
 */
export interface DailyInsight {
  adExternalId: string;
  date: string;
  impressions: number;
  /** People reached that day (unique within the day). */
  reach: number;
  clicks: number;
  spendMinor: number;
  conversions: number;
  conversionValueMinor: number;
  /** Cumulative impressions per person since the ad started: what fatigue follows. */
  frequency: number;
}

/**
 * One ad's delivery in one hour of a day (the account's time zone): the additive metrics only, as
 * platforms break down by hour (reach and frequency count unique people and are not broken down).
 */
export interface HourlyInsight {
  adExternalId: string;
  date: string;
  /** 0-23, in the account's time zone. */
  hour: number;
  impressions: number;
  clicks: number;
  spendMinor: number;
  conversions: number;
  conversionValueMinor: number;
}

export interface InsightsQuery {
  /** Inclusive days in the account's time zone (YYYY-MM-DD). */
  since: string;
  until: string;
  /** Only these ads; all the account's ads when absent. */
  adExternalIds?: string[];
}

/** A comment people left on a published ad. */
export interface AdComment {
  externalId: string;
  adExternalId: string;
  authorName: string;
  message: string;
  createdAt: string;
  hidden: boolean;
  /** The comment this one answers (replies), or null for a top-level comment. */
  parentExternalId: string | null;
  /** Written by the ad account's own page (a reply made through replyToComment), not by a person. */
  byPage: boolean;
}

export interface CommentsQuery {
  /** Comments created strictly after this time (ISO 8601), oldest first (then by id). */
  after?: string;
  /**
   * With `after`: also the comments created exactly at `after` whose id sorts after this one, so a
   * reader that stopped inside a run of equal timestamps resumes without missing or repeating any.
   */
  afterExternalId?: string;
  adExternalIds?: string[];
  limit: number;
}

export interface LeadForm {
  externalId: string;
  name: string;
  /** The field names a submission carries. */
  questions: string[];
  status: "active" | "archived";
}

export interface LeadSubmission {
  externalId: string;
  formExternalId: string;
  adExternalId: string | null;
  createdAt: string;
  fields: { name: string; values: string[] }[];
}

export interface LeadsQuery {
  formExternalId: string;
  /**
   * Submissions after this time (ISO 8601), oldest first in the platform's order: createdAt, then
   * externalId. Without `afterId`, strictly after the time.
   */
  after?: string;
  /**
   * With `after`: also the submissions created exactly at `after` whose externalId sorts after this one.
   * A page can end inside a run of equal timestamps; this is how the next page resumes there.
   */
  afterId?: string;
  limit: number;
}

/**
 * One platform's ads API for one mode (sandbox, live). Refusals are thrown as PlatformError:
 * `upstream_error` (failed or refused; may be retried later), `upstream_busy` (rate limited;
 * retry shortly), `invalid_input` (a precondition the caller must fix, terminal; the message
 * carries the platform's explanation), `not_connected`.
 */
export interface AdsApi {
  getAccount(account: AdAccountRef): Promise<PlatformAccountInfo>;

  createCampaign(account: AdAccountRef, write: CampaignWrite): Promise<PlatformCampaign>;
  updateCampaign(account: AdAccountRef, externalId: string, patch: ObjectPatch & { clientRef: string }): Promise<PlatformCampaign>;

  createAdSet(account: AdAccountRef, write: AdSetWrite): Promise<PlatformAdSet>;
  updateAdSet(account: AdAccountRef, externalId: string, patch: AdSetPatch & { clientRef: string }): Promise<PlatformAdSet>;

  createAd(account: AdAccountRef, write: AdWrite): Promise<PlatformAd>;
  updateAd(account: AdAccountRef, externalId: string, patch: AdPatch & { clientRef: string }): Promise<PlatformAd>;

  listAudiences(account: AdAccountRef): Promise<PlatformAudience[]>;
  /** Places whose name matches `query` (the platform's targeting search), of the given types, at most `limit`. */
  searchLocations(account: AdAccountRef, query: { text: string; types: readonly LocationType[]; limit: number }): Promise<PlatformLocation[]>;

  getDailyInsights(account: AdAccountRef, query: InsightsQuery): Promise<DailyInsight[]>;
  /**
   * Per ad per hour of one day (`since` = `until`, the account's day): the live adapters (Meta's hourly
   * breakdown, TikTok's stat_time_hour report); a platform without it is rolled up by day only.
   */
  getHourlyInsights?(account: AdAccountRef, query: InsightsQuery): Promise<HourlyInsight[]>;

  listComments(account: AdAccountRef, query: CommentsQuery): Promise<AdComment[]>;
  setCommentHidden(account: AdAccountRef, commentExternalId: string, hidden: boolean): Promise<AdComment>;
  /**
   * Replies as the ad account's page; answers the reply (a comment with byPage and parentExternalId).
   * A repeated call with the same `clientRef` answers the first reply (as long as it exists) instead of posting again.
   */
  replyToComment(account: AdAccountRef, commentExternalId: string, message: string, clientRef: string): Promise<AdComment>;
  /** Deletes the comment (and its replies) on the platform: it no longer appears in listComments. */
  deleteComment(account: AdAccountRef, commentExternalId: string): Promise<void>;

  listLeadForms(account: AdAccountRef): Promise<LeadForm[]>;
  listLeadSubmissions(account: AdAccountRef, query: LeadsQuery): Promise<LeadSubmission[]>;
}

export type { Platform };
