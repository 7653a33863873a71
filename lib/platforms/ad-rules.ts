import type { Platform } from "@/lib/generated/prisma/enums";
import type { CallToAction } from "./ads-types";
import { PLATFORM_A_RULES } from "./live/platform-a/rules";
import { PLATFORM_B_RULES } from "./live/platform-b/rules";
import * as checks from "./rule-checks";
import type { CreativeForRules, PlatformRules, TextForRules } from "./rule-checks";

export { fromPlatformName, scheduledDays, type CreativeForRules, type PlatformRules, type TextForRules } from "./rule-checks";

/**
 * What each platform accepts, as its adapter declares it (live/platform-a/rules.ts,
 * live/platform-b/rules.ts). Domain code (lib/ads, lib/ai) reads the rules only from here. The sandbox
 * enforces its own copy (sandbox/rules.ts); the contract suite keeps the two equal.
 */
export const PLATFORM_RULES: Readonly<Record<Platform, PlatformRules>> = { platform_a: PLATFORM_A_RULES, platform_b: PLATFORM_B_RULES };

export function platformRules(platform: Platform): PlatformRules {
  return PLATFORM_RULES[platform];
}

/** Why the budget is refused by the platform, or null (see rule-checks' budgetProblem). */
export function budgetProblem(
  platform: Platform,
  budget: Parameters<typeof checks.budgetProblem>[2],
  schedule: Parameters<typeof checks.budgetProblem>[3],
  currency: string,
): string | null {
  return checks.budgetProblem(platformRules(platform), platform, budget, schedule, currency);
}

/** Every way the creative and text break the platform's media and text rules (empty when the ad is acceptable). */
export function adProblems(platform: Platform, creative: CreativeForRules, text: TextForRules, callToAction: CallToAction): string[] {
  return checks.adProblems(platformRules(platform), platform, creative, text, callToAction);
}
