import { z } from "zod";
import { isoDate } from "@/lib/iso-time";
import { CREATIVE_TESTS_LIMIT } from "@/lib/performance/limits";
import { createCreativeTest, getCreativeTest, listCreativeTests, stopCreativeTest, TEST_METRICS } from "@/lib/performance/creative-tests";
import { getPerformanceGoal, setPerformanceGoal } from "@/lib/performance/goal";
import { getInsights, INSIGHT_LEVELS, listCreativePerformance, PERFORMANCE_SORTS } from "@/lib/performance/insights";
import { PERFORMANCE_GOALS, PERFORMANCE_LABELS } from "@/lib/performance/labels";
import { PLATFORMS } from "@/lib/uploads/upload-schema";
import { defineTool } from "../types";
import { idArg, pageArgs } from "./shared";

const read = { category: "performance", capability: "ads.read", readOnly: true, destructive: false } as const;
const write = { category: "performance", capability: "ads.write", readOnly: false, destructive: false } as const;
const day = isoDate().describe("YYYY-MM-DD, a day of the ad account's time zone");
const rate = z.number().nullable();
const Label = z.enum(PERFORMANCE_LABELS);
const Goal = z.enum(PERFORMANCE_GOALS).describe("cpa: cost per conversion, lower is better; roas: conversion value per spend, higher is better");

const InsightRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  platform: z
    .enum(PLATFORMS)
    .nullable()
    .describe("The ad account's platform: a creative with ads on both platforms has a row per platform (null: a creative without ads)"),
  adAccountId: z
    .string()
    .nullable()
    .describe(
      "The ad account the row's delivery is on (list_connected_ad_accounts' id): an object on several accounts, also two of one platform, has a row per account (null: a creative without ads)",
    ),
  currency: z.string().nullable().describe("The ad account's currency (ISO 4217): the row's spend, CPA and value are in its major units"),
  date: z.string().nullable().describe("The day with breakdown=day or hour; null for the range's total"),
  hour: z.number().int().min(0).max(23).optional().describe("With breakdown=hour: the hour of the day (0-23, the ad account's time zone)"),
  impressions: z.number().int(),
  clicks: z.number().int(),
  spend: z.number().describe("In the row's currency (major units)"),
  conversions: z.number().int(),
  conversionValue: z.number().describe("In the row's currency (major units)"),
  ctr: rate,
  cpa: rate.describe("Spend per conversion (the row's currency)"),
  roas: rate.describe("Conversion value per unit of spend"),
  frequency: rate,
});

const CreativePerformanceSchema = z.object({
  creativeId: z.string(),
  fileName: z.string(),
  kind: z.enum(["image", "video"]),
  label: Label,
  reason: z.string().describe("Why the creative has its label, with the numbers compared"),
  labelChangedAt: z.string().nullable(),
  currency: z
    .string()
    .describe(
      "The currency (ISO 4217) spend, conversionValue and cpa are in: the creative's ad accounts in one currency, the one with more impressions when it delivers in two (money is never added across currencies)",
    ),
  impressions: z.number().int(),
  clicks: z.number().int(),
  spend: z.number(),
  conversions: z.number().int(),
  conversionValue: z.number(),
  ctr: rate,
  cpa: rate,
  roas: rate,
  frequency: rate,
  recentCtr: rate.describe("CTR over the last 3 days"),
  earlierCtr: rate.describe("CTR over the 11 days before those"),
  liveAds: z.number().int(),
  updatedAt: z.string(),
});

const RollupHealthSchema = z
  .object({
    figuresAsOf: z
      .string()
      .nullable()
      .describe("The oldest of the ad accounts' last successful reads (among those read at least once): no stored figure is older; null before the first"),
    figuresTimeZone: z.string().nullable().describe("The IANA time zone of the ad account that read was of (the clock the dashboard shows figuresAsOf on)"),
    accounts: z
      .array(
        z.object({
          adAccountId: z.string(),
          platform: z.enum(PLATFORMS),
          name: z.string().describe("The platform's name for the ad account, else its id there"),
          isDefault: z.boolean().describe("The platform's default ad account for the workspace"),
          currency: z.string().describe("The ad account's currency (ISO 4217)"),
          timeZone: z.string().nullable().describe("This ad account's own IANA time zone as the rollup last read it; null before its first successful read"),
          today: z.string().nullable().describe("This ad account's current day (its time zone) at its last successful read; null before the first"),
          lastRunAt: z.string().describe("The ad account's last rollup, successful or not"),
          lastSuccessAt: z.string().nullable().describe("The ad account's last successful read: its figures are as of then"),
          lastError: z
            .string()
            .nullable()
            .describe(
              "Why the ad account's last rollup failed, or left it out (not connected: reconnect it); null when it succeeded (its figures are then current)",
            ),
        }),
      )
      .describe("Each ad account the rollup reads: every platform's default and each other account with ads, by platform, the default first"),
  })
  .describe("The hourly rollup's health per ad account");

const VariantSchema = z.object({
  creativeId: z.string(),
  fileName: z.string(),
  impressions: z.number().int(),
  clicks: z.number().int(),
  conversions: z.number().int(),
  spend: z.number().describe("In progress.currency (major units)"),
  value: rate.describe("The test's metric for this creative (cpa: in progress.currency)"),
  sample: z.number().int().describe("Impressions (ctr) or clicks (conversion_rate, cpa) so far"),
  probabilityToBeBest: z.number(),
});

const CreativeTestSchema = z.object({
  id: z.string(),
  name: z.string(),
  adSetId: z.string(),
  metric: z.enum(TEST_METRICS),
  creativeIds: z.array(z.string()),
  minSample: z.number().int(),
  maxDays: z.number().int(),
  threshold: z.number(),
  pauseLosers: z.boolean(),
  status: z.enum(["running", "completed", "stopped"]),
  outcome: z.enum(["won", "lost"]).nullable(),
  winnerCreativeId: z.string().nullable(),
  startDate: z.string(),
  startedAt: z.string(),
  endsAt: z.string(),
  decidedAt: z.string().nullable(),
  progress: z.object({
    currency: z.string().describe("The ad set's ad account currency (ISO 4217): the variants' spend and a cpa test's values are in its major units"),
    variants: z.array(VariantSchema),
    minSampleReached: z.boolean(),
    leaderCreativeId: z.string().nullable(),
    leaderProbability: z.number().nullable(),
    pausedAdIds: z.array(z.string()),
    pauseError: z.string().nullable().describe("Why the losers' ads could not be paused (pauseLosers), as the platform said; null otherwise"),
  }),
});

export const performanceTools = [
  defineTool({
    ...read,
    name: "get_insights",
    title: "Get insights",
    description:
      "Delivery (impressions, clicks, spend, conversions and value, CTR, CPA, ROAS, frequency) per ad, ad set, campaign or creative over days of the ad accounts, " +
      "per ad account (a creative on two accounts, of two platforms or of one, has a row per account, each in its account's currency), " +
      "as totals, per day or per hour (live accounts), from what the hourly rollup stored. Without ids: the level's objects with the most spend in the range (up to 50; spend compared within a currency, the currency with more impressions first). Default range: the last 30 days.",
    input: z.strictObject({
      level: z.enum(INSIGHT_LEVELS),
      ids: z.array(idArg("Object")).min(1).max(50).optional().describe("Ids at the level (ads, ad sets, campaigns or creatives)"),
      since: day.optional(),
      until: day.optional(),
      breakdown: z
        .enum(["none", "day", "hour"])
        .optional()
        .describe(
          "day: one row per object and day; hour: one row per object, day and hour (live ad accounts, whose platforms break delivery down by hour; frequency null) " +
            "(default none: one total per object)",
        ),
    }),
    output: z.object({
      level: z.enum(INSIGHT_LEVELS),
      since: z.string(),
      until: z.string(),
      currency: z
        .string()
        .nullable()
        .describe("The currency every row's money is in when they share one; null when the rows' ad accounts have different currencies (or there are no rows)"),
      rows: z.array(InsightRowSchema),
    }),
    handler: getInsights,
  }),
  defineTool({
    ...read,
    name: "list_creative_performance",
    title: "List creative performance",
    description:
      "Each creative's last-30-days figures across its ads with its label (winner, loser, fatigued, neutral) and the reason, as the last hourly rollup left them, " +
      "and the rollup's health per ad account, each of a platform's accounts its own (last run, last success, last error, time zone, currency). Sort by a figure or the label; filter by label.",
    input: z.strictObject({
      label: Label.optional(),
      sort: z
        .enum(PERFORMANCE_SORTS)
        .optional()
        .describe("Default spend. spend and cpa compare within a currency: the currency whose creatives have more impressions first, then the amount"),
      order: z.enum(["asc", "desc"]).optional().describe("Default desc (missing values last)"),
      limit: z.number().int().min(1).max(500).optional().default(100),
    }),
    output: z.object({
      creatives: z.array(CreativePerformanceSchema),
      lastRollupAt: z.string().nullable().describe("When the rollup last ran for any account, successful or not"),
      rollup: RollupHealthSchema,
    }),
    handler: listCreativePerformance,
  }),
  defineTool({
    ...read,
    name: "get_performance_goal",
    title: "Get performance goal",
    description: "The workspace's primary goal the creative labels compare on (cpa until set).",
    input: z.strictObject({}),
    output: z.object({ goal: Goal }),
    handler: getPerformanceGoal,
  }),
  defineTool({
    ...write,
    name: "set_performance_goal",
    title: "Set performance goal",
    description: "Sets the workspace's primary goal (cpa or roas); labels follow at the next hourly rollup.",
    input: z.strictObject({ goal: Goal }),
    output: z.object({ goal: Goal }),
    handler: setPerformanceGoal,
  }),
  defineTool({
    ...write,
    name: "create_creative_test",
    title: "Create creative test",
    description:
      "Compares 2 to 5 creatives (each with an ad in the ad set) on ctr, conversion_rate or cpa. The hourly evaluation decides it by Bayesian probability to be best: " +
      "won when every variant reached minSample (impressions for ctr, clicks otherwise), the leader has at least one success (a click for ctr, a conversion otherwise) and its probability reaches the threshold (default 0.95); lost when maxDays pass first. " +
      "Optionally pauses the losers' ads. Sends test.completed once.",
    input: z.strictObject({
      name: z.string().trim().min(1).max(200),
      adSetId: idArg("Ad set"),
      metric: z.enum(TEST_METRICS),
      creativeIds: z.array(idArg("Creative")).min(2).max(5),
      minSample: z.number().int().min(1).max(100_000_000).describe("Per variant: impressions (ctr) or clicks (conversion_rate, cpa)"),
      maxDays: z.number().int().min(1).max(90),
      threshold: z.number().min(0.5).max(0.999).optional().describe("Probability to be best the winner needs (default 0.95)"),
      pauseLosers: z.boolean().optional().describe("Pause the losing creatives' ads in the ad set when a winner is found"),
    }),
    output: z.object({ test: CreativeTestSchema }),
    handler: createCreativeTest,
  }),
  defineTool({
    ...read,
    name: "list_creative_tests",
    title: "List creative tests",
    description: "The workspace's creative tests, newest first, each with its progress towards a decision. Paginated.",
    input: z.strictObject({
      status: z.enum(["running", "completed", "stopped"]).optional(),
      adSetId: idArg("Ad set").optional(),
      ...pageArgs({ defaultLimit: 20, maxLimit: CREATIVE_TESTS_LIMIT }),
    }),
    output: z.object({ tests: z.array(CreativeTestSchema), nextCursor: z.string().nullable() }),
    handler: listCreativeTests,
  }),
  defineTool({
    ...read,
    name: "get_creative_test",
    title: "Get creative test",
    description: "One creative test with each variant's numbers and probability to be best.",
    input: z.strictObject({ id: idArg("Creative test") }),
    output: z.object({ test: CreativeTestSchema }),
    handler: getCreativeTest,
  }),
  defineTool({
    ...write,
    name: "stop_creative_test",
    title: "Stop creative test",
    description: "Stops a running test without a decision (no event); a decided or stopped test answers as it is.",
    input: z.strictObject({ id: idArg("Creative test") }),
    output: z.object({ test: CreativeTestSchema }),
    handler: stopCreativeTest,
  }),
];
