import type { Platform } from "@/lib/generated/prisma/enums";
import type { AdCreativeSpec, AdSetWrite } from "../ads-types";
import { adProblems, budgetProblem, type PlatformRules } from "../rule-checks";
import { PlatformError } from "../types";

/**
 * A live adapter refuses a write that breaks its platform's rules (platform-a/rules.ts, platform-b/rules.ts) before
 * calling the platform, with the same invalid_input the sandbox answers from its own copy, so callers
 * (and the contract suite) see one behaviour per platform whichever adapter serves the account.
 */
const refused = (platform: Platform, problems: string[]) =>
  new PlatformError("invalid_input", `${platform} refused the request: ${problems.join("; ")}`, { retryable: false });

export function checkAdSetWrite(rules: PlatformRules, platform: Platform, write: AdSetWrite, currency: string): void {
  const t = write.targeting;
  if (t.platform !== platform) throw refused(platform, [`targeting for ${t.platform} sent to ${platform}`]);
  if (t.platform === "platform_a" && t.countries.length + (t.regions?.length ?? 0) + (t.cities?.length ?? 0) === 0)
    throw refused(platform, ["an ad set needs at least one target country, region or city"]);
  if (t.platform === "platform_b" && t.locationIds.length === 0) throw refused(platform, ["an ad group needs at least one location id"]);
  const start = write.startTime ? new Date(write.startTime) : new Date();
  const problem = budgetProblem(rules, platform, write.budget, { startTime: start, endTime: write.endTime ? new Date(write.endTime) : null }, currency);
  if (problem) throw refused(platform, [problem]);
}

/** The copy and call to action of an ad (its media was checked when it was pushed). */
export function checkAdCreative(rules: PlatformRules, platform: Platform, creative: AdCreativeSpec): void {
  const problems = adProblems(
    rules,
    platform,
    { id: creative.mediaId, kind: creative.kind, width: null, height: null, durationMs: null, sizeBytes: 0 },
    creative,
    creative.callToAction,
  ).filter((p) => !p.startsWith("creative "));
  if (problems.length) throw refused(platform, problems);
  if (!/^https?:\/\//.test(creative.landingUrl)) throw refused(platform, ["the landing URL must be http(s)"]);
}
