import type { Platform } from "@/lib/generated/prisma/enums";
import type { PlatformRules } from "../rule-checks";

/**
 * What the sandbox platforms enforce: the sandbox's OWN copy of each platform's rules, written from the
 * platforms' references like a real platform's behaviour, never read from the adapters' tables
 * (live/platform-a/rules.ts, live/platform-b/rules.ts) the domain uses. tests/platforms/contract.test.ts runs the same cases on the
 * sandbox and on the live adapters, so a rule that differs here fails it.
 */
export const SANDBOX_RULES: Record<Platform, PlatformRules> = {
  platform_a: {
    adSetNoun: "ad set",
    objectiveNames: {
      traffic: "OUTCOME_TRAFFIC",
      sales: "OUTCOME_SALES",
      leads: "OUTCOME_LEADS",
      awareness: "OUTCOME_AWARENESS",
      engagement: "OUTCOME_ENGAGEMENT",
    },
    statusNames: { active: "ACTIVE", paused: "PAUSED", archived: "ARCHIVED", deleted: "DELETED" },
    callToActionNames: {
      learn_more: "LEARN_MORE",
      shop_now: "SHOP_NOW",
      sign_up: "SIGN_UP",
      download: "DOWNLOAD",
      contact_us: "CONTACT_US",
      book_now: "BOOK_TRAVEL",
      get_offer: "GET_OFFER",
      subscribe: "SUBSCRIBE",
    },
    minBudgetPerDayMinor: { daily: 100, lifetime: 100 },
    media: {
      image: { minWidth: 200, minHeight: 200, minAspect: 9 / 16, maxAspect: 1.91, maxBytes: 30 * 1024 * 1024 },
      video: { minWidth: 120, minHeight: 120, maxDurationMs: 240 * 60_000, maxBytes: 200 * 1024 * 1024 },
    },
    text: { headline: 255, primaryText: 2200, description: 255 },
    primaryTextRequired: false,
  },
  platform_b: {
    adSetNoun: "ad group",
    objectiveNames: {
      traffic: "TRAFFIC",
      sales: "WEB_CONVERSIONS",
      leads: "LEAD_GENERATION",
      awareness: "REACH",
      engagement: "ENGAGEMENT",
    },
    statusNames: { active: "ENABLE", paused: "DISABLE", archived: "ARCHIVE", deleted: "DELETE" },
    callToActionNames: {
      learn_more: "LEARN_MORE",
      shop_now: "SHOP_NOW",
      sign_up: "SIGN_UP",
      download: "DOWNLOAD_NOW",
      contact_us: "CONTACT_US",
      apply_now: "APPLY_NOW",
      subscribe: "SUBSCRIBE",
    },
    minBudgetPerDayMinor: { daily: 2000, lifetime: 2000 },
    media: {
      image: { minWidth: 300, minHeight: 300, minAspect: 9 / 16 - 0.01, maxAspect: 16 / 9 + 0.01, maxBytes: 30 * 1024 * 1024 },
      video: { minWidth: 360, minHeight: 360, maxDurationMs: 10 * 60_000, maxBytes: 200 * 1024 * 1024 },
    },
    text: { headline: 40, primaryText: 100, description: 0 },
    primaryTextRequired: true,
  },
};
