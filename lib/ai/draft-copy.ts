import { z } from "zod";
import { authorize } from "@/lib/auth/authorize";
import type { Principal } from "@/lib/auth/principal";
import { saveCopy } from "@/lib/copy/copy-variants";
import { findVisibleCreative, isCreativeVisible } from "@/lib/creatives/list-creatives";
import { getDb } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import type { Platform } from "@/lib/generated/prisma/enums";
import { PLATFORM_RULES } from "@/lib/platforms/ad-rules";
import { jsonIn } from "./json-answer";
import { type AiCost, meteredCall } from "./metered";
import type { AiRuntime } from "./provider";
import { settingsOf } from "./settings";

export const DRAFT_PLATFORMS = ["platform_a", "platform_b"] as const;
export const MAX_DRAFTS_PER_PLATFORM = 5;
/** How many of the workspace's winning creatives lend their copy as examples. */
const WINNER_EXAMPLES = 5;

export interface DraftCopyInput {
  creativeId: string;
  platforms?: Platform[];
  count?: number;
  /** What to stress this time ("spring sale", "free shipping"). */
  brief?: string;
}

export interface DraftedVariant {
  id: string;
  platform: Platform;
  label: string;
  headline: string | null;
  primaryText: string | null;
  description: string | null;
  /** A field was cut at a word boundary to fit the platform's limit. */
  trimmed: boolean;
}

const drafted = z.array(
  z.object({
    platform: z.string().optional(),
    headline: z.string().nullable().optional(),
    primaryText: z.string().nullable().optional(),
    description: z.string().nullable().optional(),
  }),
);

/** Cuts text to `max` code points, at the last space when there is one in the second half. */
export function fitText(text: string | null | undefined, max: number): { text: string | null; trimmed: boolean } {
  const clean = text?.trim() ?? "";
  if (!clean || max === 0) return { text: null, trimmed: Boolean(clean) };
  const chars = [...clean];
  if (chars.length <= max) return { text: clean, trimmed: false };
  const cut = chars.slice(0, max).join("");
  const space = cut.lastIndexOf(" ");
  return { text: (space > max / 2 ? cut.slice(0, space) : cut).trim(), trimmed: true };
}

/**
 * Drafts copy variants for a creative per platform, from what the library knows of the creative, the
 * workspace's brand voice, the copy of its winning creatives and each platform's text limits, and saves
 * them as labelled copy variants. Saving needs the copy permission too, checked before any credit is spent.
 */
export async function draftCopyVariants(
  principal: Principal,
  input: DraftCopyInput,
  runtime?: AiRuntime | null,
): Promise<{ variants: DraftedVariant[]; cost: AiCost }> {
  authorize(principal, "copy.write");
  const creative = await findVisibleCreative(principal, input.creativeId);
  if (!creative) throw notFound("Creative");
  const platforms = [...new Set(input.platforms?.length ? input.platforms : DRAFT_PLATFORMS)];
  const count = input.count ?? 3;
  const { brandVoice } = await settingsOf(principal.workspaceId);
  const db = getDb();
  const existing = await db.copyVariant.findMany({
    where: { creativeId: creative.id, workspaceId: principal.workspaceId },
    orderBy: { createdAt: "desc" },
    take: 5,
  });
  const winners = await winnersCopy(principal, creative.id);

  const limits = platforms.map((p) => {
    const t = PLATFORM_RULES[p].text;
    return `- ${p}: headline up to ${t.headline} characters, primaryText up to ${t.primaryText}${PLATFORM_RULES[p].primaryTextRequired ? " (required)" : ""}, ${t.description ? `description up to ${t.description}` : "no description (leave it null)"}`;
  });
  const facts = [
    `File: ${creative.fileName} (${creative.kind}${creative.width && creative.height ? `, ${creative.width}x${creative.height}` : ""}${creative.durationMs ? `, ${Math.round(creative.durationMs / 1000)} s` : ""})`,
    existing.length
      ? `Its copy so far:\n${existing.map((c) => `- ${[c.headline, c.primaryText].filter(Boolean).join(" | ")}`).join("\n")}`
      : "It has no copy yet.",
    winners.length
      ? `Copy of the workspace's winning creatives (match what works, do not copy it):\n${winners.map((w) => `- ${w}`).join("\n")}`
      : "No winning creatives yet.",
    input.brief ? `This time, stress: ${input.brief}` : "",
  ].filter(Boolean);
  const system = [
    'You write ad copy for a marketing team. Answer with JSON only: an array of objects {"platform", "headline", "primaryText", "description"}.',
    `Write ${count} distinct variants for each platform: ${platforms.join(", ")}. Keep strictly within each platform's limits:`,
    ...limits,
    brandVoice ? `Brand voice (follow it): ${brandVoice}` : "No brand voice is set: write clearly and plainly.",
    "Never invent prices, discounts, numbers or claims that the brief does not give.",
  ].join("\n");

  const answer = await meteredCall(
    principal,
    { feature: "draft_copy_variants", system, messages: [{ role: "user", content: facts.join("\n\n") }], maxOutputTokens: 300 * count * platforms.length },
    runtime,
  );
  const parsed = drafted.safeParse(jsonIn(answer.text));
  if (!parsed.success || parsed.data.length === 0) {
    throw new AppError(
      "upstream_error",
      `The model's answer was not the JSON list of variants asked for (it was still charged: ${answer.cost.credits} credits)`,
    );
  }
  const variants: DraftedVariant[] = [];
  for (const platform of platforms) {
    const forPlatform = parsed.data.filter((v) => v.platform === platform);
    const pool = forPlatform.length ? forPlatform : parsed.data.filter((v) => !v.platform || !platforms.includes(v.platform as Platform));
    for (const [i, v] of pool.slice(0, count).entries()) {
      const rules = PLATFORM_RULES[platform].text;
      const headline = fitText(v.headline, rules.headline);
      const primaryText = fitText(v.primaryText, rules.primaryText);
      const description = fitText(v.description, rules.description);
      const label = `AI draft · ${platform} · ${i + 1}`;
      const saved = await saveCopy(principal, {
        creativeId: creative.id,
        headline: headline.text,
        primaryText: primaryText.text,
        description: description.text,
        label,
      });
      variants.push({
        id: saved.id,
        platform,
        label,
        headline: headline.text,
        primaryText: primaryText.text,
        description: description.text,
        trimmed: headline.trimmed || primaryText.trimmed || (description.trimmed && rules.description > 0),
      });
    }
  }
  return { variants, cost: answer.cost };
}

/** Headlines and texts of the workspace's winning creatives that the caller may see (examples, not templates). */
async function winnersCopy(principal: Principal, exceptCreativeId: string): Promise<string[]> {
  const db = getDb();
  const winners = await db.creativePerformance.findMany({
    where: { workspaceId: principal.workspaceId, label: "winner", creativeId: { not: exceptCreativeId } },
    orderBy: { spendMinor: "desc" },
    take: WINNER_EXAMPLES * 2,
    select: { creativeId: true },
  });
  const out: string[] = [];
  for (const w of winners) {
    if (out.length >= WINNER_EXAMPLES || !(await isCreativeVisible(principal, w.creativeId))) continue;
    const copy = await db.copyVariant.findFirst({ where: { creativeId: w.creativeId, workspaceId: principal.workspaceId }, orderBy: { createdAt: "desc" } });
    if (copy) out.push([copy.headline, copy.primaryText].filter(Boolean).join(" | "));
  }
  return out;
}
