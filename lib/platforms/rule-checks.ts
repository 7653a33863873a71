import { formatMinor } from "@/lib/money";
import type { MediaKind, Platform } from "@/lib/generated/prisma/enums";
import type { AdObjectStatus, BudgetType, CallToAction, Objective } from "./ads-types";

/**
 * The shape of a platform's rules (the names it uses, its budget minimums, its media and text limits)
 * and the checks over one such table. The tables live with each platform's adapter
 * (live/platform-a/rules.ts, live/platform-b/rules.ts, read through ad-rules.ts' platformRules), and the
 * sandbox has its own copy (sandbox/rules.ts): these functions take the table to check against.
 */
export interface PlatformRules {
  /** What the platform calls an ad set. */
  adSetNoun: "ad set" | "ad group";
  objectiveNames: Record<Objective, string>;
  /** The platform's own status names. */
  statusNames: Record<AdObjectStatus, string>;
  callToActionNames: Partial<Record<CallToAction, string>>;
  /** Minimum budget in minor units: per day for daily budgets, per scheduled day for lifetime budgets. */
  minBudgetPerDayMinor: Record<BudgetType, number>;
  media: {
    image: { minWidth: number; minHeight: number; minAspect: number; maxAspect: number; maxBytes: number };
    video: { minWidth: number; minHeight: number; maxDurationMs: number; maxBytes: number };
  };
  /** Code-point limits; 0 means the platform has no such field (it must be empty). */
  text: { headline: number; primaryText: number; description: number };
  /** primaryText is required (platform B ads always carry ad text). */
  primaryTextRequired: boolean;
}

/** Whole days a lifetime budget is scheduled over (at least 1). */
export function scheduledDays(startTime: Date, endTime: Date): number {
  return Math.max(1, Math.ceil((endTime.getTime() - startTime.getTime()) / 86_400_000));
}

/** Why the budget is refused, or null. Lifetime budgets need an end time; the minimum scales with the days scheduled. */
export function budgetProblem(
  rules: PlatformRules,
  platform: Platform,
  budget: { type: BudgetType; amountMinor: number },
  schedule: { startTime: Date; endTime: Date | null },
  currency: string,
): string | null {
  const perDay = rules.minBudgetPerDayMinor[budget.type];
  if (budget.type === "daily") {
    return budget.amountMinor < perDay
      ? `budget.amountMinor: ${platform} needs a daily budget of at least ${perDay} (${formatMinor(perDay, currency)}); got ${budget.amountMinor}`
      : null;
  }
  if (!schedule.endTime) return `endTime: a lifetime budget needs an end time`;
  if (schedule.endTime.getTime() <= schedule.startTime.getTime()) return `endTime: must be after the start time`;
  const days = scheduledDays(schedule.startTime, schedule.endTime);
  const min = perDay * days;
  return budget.amountMinor < min
    ? `budget.amountMinor: ${platform} needs a lifetime budget of at least ${min} (${formatMinor(perDay, currency)} per day over ${days} day${days > 1 ? "s" : ""}); got ${budget.amountMinor}`
    : null;
}

export interface CreativeForRules {
  id: string;
  kind: MediaKind;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  sizeBytes: number;
}

export interface TextForRules {
  headline: string | null;
  primaryText: string | null;
  description: string | null;
}

const length = (s: string | null) => (s ? [...s].length : 0);
const hundredths = (ratio: number) => Math.round(ratio * 100) / 100;

/** Every way the creative and text break the platform's media and text rules (empty when the ad is acceptable). */
export function adProblems(rules: PlatformRules, platform: Platform, creative: CreativeForRules, text: TextForRules, callToAction: CallToAction): string[] {
  const problems: string[] = [];
  const w = creative.width;
  const h = creative.height;
  if (creative.kind === "image") {
    const r = rules.media.image;
    if (w === null || h === null)
      problems.push(`creative ${creative.id}: its dimensions are unknown; ${platform} needs at least ${r.minWidth}x${r.minHeight} px`);
    else {
      if (w < r.minWidth || h < r.minHeight)
        problems.push(`creative ${creative.id}: ${w}x${h} px is below ${platform}'s minimum of ${r.minWidth}x${r.minHeight} px`);
      // Compared as the platforms' guides print ratios, to two decimals: Meta's 1.91:1 is 1200x628 px (1.9108), which an
      // exact comparison refused with "aspect ratio 1.91 is outside 0.56 to 1.91".
      const aspect = hundredths(w / h);
      const [min, max] = [hundredths(r.minAspect), hundredths(r.maxAspect)];
      if (aspect < min || aspect > max) {
        problems.push(`creative ${creative.id}: aspect ratio ${aspect.toFixed(2)} is outside ${platform}'s ${min.toFixed(2)} to ${max.toFixed(2)}`);
      }
    }
    if (creative.sizeBytes > r.maxBytes) problems.push(`creative ${creative.id}: ${creative.sizeBytes} bytes is over ${platform}'s ${r.maxBytes}`);
  } else {
    const r = rules.media.video;
    if (w !== null && h !== null && (w < r.minWidth || h < r.minHeight)) {
      problems.push(`creative ${creative.id}: ${w}x${h} px is below ${platform}'s minimum of ${r.minWidth}x${r.minHeight} px for video`);
    }
    if (creative.durationMs !== null && creative.durationMs > r.maxDurationMs) {
      problems.push(`creative ${creative.id}: the video runs ${Math.round(creative.durationMs / 1000)} s, over ${platform}'s ${r.maxDurationMs / 1000} s`);
    }
    if (creative.sizeBytes > r.maxBytes) problems.push(`creative ${creative.id}: ${creative.sizeBytes} bytes is over ${platform}'s ${r.maxBytes}`);
  }
  for (const field of ["headline", "primaryText", "description"] as const) {
    const max = rules.text[field];
    const n = length(text[field]);
    if (max === 0 && n > 0) problems.push(`${field}: ${platform} ads have no ${field}; leave it empty`);
    else if (n > max) problems.push(`${field}: ${n} characters is over ${platform}'s ${max}`);
  }
  if (rules.primaryTextRequired && length(text.primaryText) === 0) problems.push(`primaryText: ${platform} ads need ad text (the copy variant's primary text)`);
  if (!rules.callToActionNames[callToAction]) {
    problems.push(`callToAction: ${platform} does not offer "${callToAction}"; use one of ${Object.keys(rules.callToActionNames).join(", ")}`);
  }
  return problems;
}

/** The neutral value whose platform name is `name` in the table, or undefined. */
export function fromPlatformName<K extends string>(table: Partial<Record<K, string>>, name: string): K | undefined {
  return (Object.keys(table) as K[]).find((k) => table[k] === name);
}
