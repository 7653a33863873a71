import type { PlatformRules } from "../../rule-checks";

/**
 * What TikTok's API for Business accepts (platform_b): its names, budget minimums, media and text
 * limits. The domain checks ads against these before anything is sent, and the live adapter refuses a
 * write that breaks them without calling TikTok. The sandbox keeps its own copy (lib/platforms/sandbox/rules.ts);
 * tests/platforms/contract.test.ts fails when the two differ.
 */
export const PLATFORM_B_RULES: PlatformRules = {
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
};
