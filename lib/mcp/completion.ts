import type { CompleteRequest, CompleteResult } from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "@/lib/auth/principal";
import { INSIGHT_LEVELS } from "@/lib/performance/insights";
import { CREATIVE_URI_TEMPLATE, INSIGHTS_URI_TEMPLATE } from "./resources";
import { readThroughTool } from "./tool-json";

const MAX_VALUES = 100; // the spec's cap per answer
const PLATFORMS = ["platform_a", "platform_b"];

/** Creative ids the principal can see that start with the prefix (newest first, from the first 200). */
async function creativeIds(principal: Principal, prefix: string): Promise<string[]> {
  const { creatives } = await readThroughTool<{ creatives: { id: string }[] }>(principal, "list_creatives", { limit: 200 });
  return creatives.map((c) => c.id).filter((id) => id.startsWith(prefix));
}

function fixed(values: readonly string[], prefix: string): string[] {
  return values.filter((v) => v.startsWith(prefix));
}

/** What to offer for one argument of a prompt or resource template; null when the argument takes free text. */
async function candidates(principal: Principal, ref: CompleteRequest["params"]["ref"], name: string, value: string): Promise<string[] | null> {
  if (ref.type === "ref/resource") {
    if (ref.uri === CREATIVE_URI_TEMPLATE && name === "id") return creativeIds(principal, value);
    if (ref.uri === INSIGHTS_URI_TEMPLATE && name === "level") return fixed(INSIGHT_LEVELS, value);
    return null;
  }
  if (name === "creativeId") return creativeIds(principal, value);
  if (name === "creativeIds") {
    // Completes the last id of a comma-separated list, keeping the ones before it.
    const rest = value.slice(value.lastIndexOf(",") + 1);
    const last = rest.trimStart();
    const kept = value.slice(0, value.length - last.length); // the ids before it, and the separator as typed
    return (await creativeIds(principal, last)).map((id) => `${kept}${id}`);
  }
  if (name === "platform") return fixed(PLATFORMS, value);
  return null;
}

/** completion/complete: ids (or fixed values) that start with what was typed. */
export async function complete(principal: Principal, params: CompleteRequest["params"]): Promise<CompleteResult> {
  const all = (await candidates(principal, params.ref, params.argument.name, params.argument.value)) ?? [];
  return { completion: { values: all.slice(0, MAX_VALUES), total: all.length, hasMore: all.length > MAX_VALUES } };
}
