import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { findVisibleCreative } from "@/lib/creatives/list-creatives";
import { AppError, notFound } from "@/lib/errors";
import { jsonIn } from "./json-answer";
import { type AiCost, meteredCall } from "./metered";
import type { AiRuntime } from "./provider";
import { settingsOf } from "./settings";

export const NAME_SUBJECTS = ["campaign", "ad_set", "ad", "creative"] as const;
export const NAME_MAX = 200;

export interface SuggestNamesInput {
  subject: (typeof NAME_SUBJECTS)[number];
  creativeId?: string;
  /** What the thing is about: product, audience, angle, dates. */
  context?: string;
  count?: number;
}

/** Names for a campaign, ad set, ad or creative that follow the workspace's naming convention (a setting). */
export async function suggestNames(
  principal: Principal,
  input: SuggestNamesInput,
  runtime?: AiRuntime | null,
): Promise<{ names: string[]; convention: string | null; cost: AiCost }> {
  const { namingConvention } = await settingsOf(principal.workspaceId);
  const creative = input.creativeId ? await findVisibleCreative(principal, input.creativeId) : null;
  if (input.creativeId && !creative) throw notFound("Creative");
  const count = input.count ?? 5;
  const today = new Date().toISOString().slice(0, 10);
  const system = [
    `You name advertising objects. Answer with JSON only: an array of ${count} distinct ${input.subject.replace("_", " ")} names, each at most ${NAME_MAX} characters.`,
    namingConvention
      ? `Follow this naming convention exactly (fill every placeholder): ${namingConvention}`
      : "No naming convention is set: use short lowercase words joined by underscores.",
  ].join("\n");
  const facts = [`Today: ${today}`, creative ? `Creative: ${creative.fileName} (${creative.kind})` : "", input.context ? `About: ${input.context}` : ""]
    .filter(Boolean)
    .join("\n");
  const answer = await meteredCall(
    principal,
    { feature: "suggest_names", system, messages: [{ role: "user", content: facts }], maxOutputTokens: 60 * count },
    runtime,
  );
  const parsed = z.array(z.string()).safeParse(jsonIn(answer.text));
  const names = parsed.success ? [...new Set(parsed.data.map((n) => n.trim()).filter((n) => n && [...n].length <= NAME_MAX))].slice(0, count) : [];
  if (!names.length)
    throw new AppError("upstream_error", `The model's answer was not the JSON list of names asked for (it was still charged: ${answer.cost.credits} credits)`);
  return { names, convention: namingConvention, cost: answer.cost };
}
