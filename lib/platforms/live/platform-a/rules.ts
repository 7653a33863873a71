import type { PlatformRules } from "../../rule-checks";

/**
 * What Meta's Marketing API accepts (platform_a): its names, budget minimums (USD-class currencies,
 * impressions billing), media and text limits. The domain checks ads against these before anything is
 * sent, and the live adapter refuses a write that breaks them without calling Meta. The sandbox keeps
 * its own copy (lib/platforms/sandbox/rules.ts); tests/platforms/contract.test.ts fails when the two differ.
 */
export const PLATFORM_A_RULES: PlatformRules = {
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
};
