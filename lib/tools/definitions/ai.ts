import { z } from "zod";
import { DRAFT_PLATFORMS, draftCopyVariants, MAX_DRAFTS_PER_PLATFORM } from "@/lib/ai/draft-copy";
import { explainPerformance } from "@/lib/ai/explain-performance";
import { performanceFacts } from "@/lib/ai/performance-facts";
import { BRAND_VOICE_MAX, getAiSettings, NAMING_CONVENTION_MAX, updateAiSettings } from "@/lib/ai/settings";
import { NAME_MAX, NAME_SUBJECTS, suggestNames } from "@/lib/ai/suggest-names";
import { summarizeReviewThreads } from "@/lib/ai/summarize-review";
import { aiUsage } from "@/lib/ai/usage";
import { defineTool } from "../types";
import { idArg } from "./shared";

const read = { category: "ai", capability: "ai.use", readOnly: true, destructive: false } as const;
/** Generating tools spend credits: not read-only, so an idempotency key replays the answer instead of charging again. */
const generate = { category: "ai", capability: "ai.use", readOnly: false, destructive: false } as const;

const write = { category: "ai", capability: "ai.use", readOnly: false, destructive: false } as const;

const GENERATING =
  " Spends AI credits (the answer's `cost` says how many); refused with `limit_exceeded` when the workspace's credits cannot cover the call's worst case, " +
  "and with `not_connected` when no AI provider is configured (docs/ai.md).";

const CostSchema = z
  .object({
    credits: z.number().int().describe("Credits charged, from the provider's token usage and the model's price"),
    reservedCredits: z.number().int().describe("Credits held back before the call (its worst case); the rest returned"),
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
    model: z.string(),
  })
  .meta({ id: "AiCost" });

const SettingsSchema = z.object({
  brandVoice: z.string().nullable().describe("How the brand speaks; given to the model when drafting copy"),
  namingConvention: z.string().nullable().describe('How things are named, e.g. "{date}_{platform}_{product}_{angle}"'),
});

const FactSchema = z.object({ key: z.string(), text: z.string() });

export const aiTools = [
  defineTool({
    name: "get_ai_settings",
    title: "Get AI settings",
    description: "The workspace's brand voice and naming convention, which the AI assistant follows.",
    ...read,
    input: z.strictObject({}),
    output: z.object({ settings: SettingsSchema }),
    handler: getAiSettings,
  }),
  defineTool({
    name: "update_ai_settings",
    title: "Update AI settings",
    description: "Sets the workspace's brand voice and naming convention (fields left out stay; null clears one).",
    ...write,
    input: z.strictObject({
      brandVoice: z.string().max(BRAND_VOICE_MAX).nullable().optional().describe(`Up to ${BRAND_VOICE_MAX} characters; null clears it`),
      namingConvention: z.string().max(NAMING_CONVENTION_MAX).nullable().optional().describe(`Up to ${NAMING_CONVENTION_MAX} characters; null clears it`),
    }),
    output: z.object({ settings: SettingsSchema }),
    handler: updateAiSettings,
  }),
  defineTool({
    name: "get_ai_usage",
    title: "AI credit usage",
    description:
      "Credits spent over the last `days` (default 30) by member and by feature, the latest calls with their tokens and charge, and the balance (owners only, as on GET /api/v1/me). Members other than owners and admins see their own usage.",
    ...read,
    input: z.strictObject({ days: z.number().int().min(1).max(366).optional().describe("How far back, in days (default 30)") }),
    output: z.object({
      usage: z.object({
        balance: z.number().int().nullable(),
        days: z.number().int(),
        totalCredits: z.number().int(),
        calls: z.number().int(),
        byMember: z.array(z.object({ userId: z.string(), name: z.string().nullable(), email: z.string(), credits: z.number().int(), calls: z.number().int() })),
        byFeature: z.array(z.object({ feature: z.string(), credits: z.number().int(), calls: z.number().int() })),
        recent: z.array(
          z.object({
            id: z.string(),
            userId: z.string(),
            feature: z.string(),
            model: z.string(),
            status: z.enum(["reserved", "captured", "released"]),
            reservedCredits: z.number().int(),
            chargedCredits: z.number().int(),
            inputTokens: z.number().int().nullable(),
            outputTokens: z.number().int().nullable(),
            error: z.string().nullable(),
            createdAt: z.string(),
          }),
        ),
      }),
    }),
    handler: aiUsage,
  }),
  defineTool({
    name: "get_performance_facts",
    title: "Performance facts of a creative",
    description:
      "The figures and comparisons behind a creative's label, computed from the hourly rollup, the label rules and its creative tests (no model, no credits): what explain_creative_performance may say. Needs ads view access.",
    ...read,
    input: z.strictObject({ creativeId: idArg("Creative") }),
    output: z.object({
      creativeId: z.string(),
      fileName: z.string(),
      label: z.string().nullable(),
      goal: z.enum(["cpa", "roas"]),
      facts: z.array(FactSchema),
      summary: z.string().describe("The facts as plain sentences"),
    }),
    handler: performanceFacts,
  }),
  defineTool({
    name: "draft_copy_variants",
    title: "Draft copy variants",
    description:
      "Drafts copy variants for a creative, per platform, from what the library knows of the creative, the workspace's brand voice, its winning creatives' copy and each platform's text limits, and saves them as copy variants labelled `AI draft · <platform> · <n>`. Also needs the copy edit permission." +
      GENERATING,
    ...generate,
    input: z.strictObject({
      creativeId: idArg("Creative"),
      platforms: z.array(z.enum(DRAFT_PLATFORMS)).min(1).max(2).optional().describe("Default: both"),
      count: z.number().int().min(1).max(MAX_DRAFTS_PER_PLATFORM).optional().describe(`Variants per platform, 1 to ${MAX_DRAFTS_PER_PLATFORM} (default 3)`),
      brief: z.string().max(500).optional().describe("What to stress this time"),
    }),
    output: z.object({
      variants: z.array(
        z.object({
          id: z.string().describe("The saved copy variant"),
          platform: z.enum(DRAFT_PLATFORMS),
          label: z.string(),
          headline: z.string().nullable(),
          primaryText: z.string().nullable(),
          description: z.string().nullable(),
          trimmed: z.boolean().describe("A field was cut at a word boundary to fit the platform's limit"),
        }),
      ),
      cost: CostSchema,
    }),
    handler: (principal, input) => draftCopyVariants(principal, input),
  }),
  defineTool({
    name: "explain_creative_performance",
    title: "Explain a creative's performance",
    description:
      "Why a creative wins, loses or fatigues, in words: the facts are computed from our data (get_performance_facts) and the model only writes them up. A write-up quoting any number that is not in the facts is discarded and the facts are answered instead (writtenBy: facts). Needs ads view access." +
      GENERATING,
    ...generate,
    input: z.strictObject({ creativeId: idArg("Creative"), question: z.string().max(500).optional().describe("Default: why it performs the way it does") }),
    output: z.object({
      creativeId: z.string(),
      label: z.string().nullable(),
      explanation: z.string(),
      writtenBy: z.enum(["model", "facts"]),
      unsupportedNumbers: z.array(z.string()).describe("Numbers the model wrote that are not in the data"),
      facts: z.array(FactSchema),
      cost: CostSchema,
    }),
    handler: (principal, input) => explainPerformance(principal, input),
  }),
  defineTool({
    name: "suggest_names",
    title: "Suggest names",
    description: "Names for a campaign, ad set, ad or creative that follow the workspace's naming convention (get_ai_settings)." + GENERATING,
    ...generate,
    input: z.strictObject({
      subject: z.enum(NAME_SUBJECTS),
      creativeId: idArg("Creative").optional(),
      context: z.string().max(500).optional().describe("What it is about: product, audience, angle, dates"),
      count: z.number().int().min(1).max(10).optional().describe("Default 5"),
    }),
    output: z.object({ names: z.array(z.string().max(NAME_MAX)), convention: z.string().nullable(), cost: CostSchema }),
    handler: (principal, input) => suggestNames(principal, input),
  }),
  defineTool({
    name: "summarize_review_threads",
    title: "Summarize review threads",
    description:
      "Summarizes the review comments on a creative's version (default: current): the changes asked for, what is settled, what is open. No comments: no model call and cost null." +
      GENERATING,
    ...generate,
    input: z.strictObject({ creativeId: idArg("Creative"), version: z.number().int().min(1).optional() }),
    output: z.object({
      versionNumber: z.number().int(),
      openThreads: z.number().int(),
      resolvedThreads: z.number().int(),
      summary: z.string(),
      cost: CostSchema.nullable(),
    }),
    handler: (principal, input) => summarizeReviewThreads(principal, input),
  }),
];
