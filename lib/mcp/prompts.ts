import type { GetPromptResult, Prompt, PromptMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "@/lib/auth/principal";
import { CREATIVE_PERFORMANCE_URI, creativeUri, readResource } from "./resources";

/**
 * MCP prompts: the workflows an assistant is most often asked for, written once so every client
 * gets the same steps. Each names the tools to use and embeds the resources it starts from
 * (read as the principal, so a prompt never shows what its caller could not read).
 */
export const PROMPTS: Prompt[] = [
  {
    name: "launch_creatives",
    title: "Launch these creatives",
    description: "Build ads on the ad platforms from creatives of the library, checked first with a dry run",
    arguments: [
      { name: "creativeIds", description: "Creative ids, comma-separated (crv_…)", required: true },
      { name: "platform", description: "platform_a or platform_b (default: ask)", required: false },
    ],
  },
  {
    name: "weekly_performance_review",
    title: "Weekly performance review",
    description: "Review last week's delivery: winners, losers, fatigue, spend, and what to change",
    arguments: [],
  },
  {
    name: "review_creative",
    title: "Review a creative",
    description: "Review one creative: its media, copy variants, review status and comments, and its performance",
    arguments: [{ name: "creativeId", description: "The creative's id (crv_…)", required: true }],
  },
];

export class PromptArgumentError extends Error {}

function text(role: "user" | "assistant", value: string): PromptMessage {
  return { role, content: { type: "text", text: value } };
}

async function embedded(principal: Principal, uri: string): Promise<PromptMessage> {
  const read = await readResource(principal, uri);
  const [content] = read!.contents;
  return { role: "user", content: { type: "resource", resource: { uri, mimeType: "application/json", text: (content as { text: string }).text } } };
}

function requireArg(args: Record<string, string>, name: string): string {
  const value = args[name]?.trim();
  if (!value) throw new PromptArgumentError(`Missing required argument "${name}"`);
  return value;
}

/** prompts/get: the prompt's messages, or null for an unknown name. */
export async function getPrompt(principal: Principal, name: string, args: Record<string, string>): Promise<GetPromptResult | null> {
  switch (name) {
    case "launch_creatives": {
      const ids = requireArg(args, "creativeIds")
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean);
      if (ids.length > 20) throw new PromptArgumentError("creativeIds: at most 20 creatives per launch");
      const platform = args.platform?.trim();
      if (platform && platform !== "platform_a" && platform !== "platform_b") throw new PromptArgumentError('platform: use "platform_a" or "platform_b"');
      return {
        description: `Launch ${ids.length} creative${ids.length === 1 ? "" : "s"}`,
        messages: [
          text(
            "user",
            `Launch these creatives as ads${platform ? ` on ${platform}` : ""}: ${ids.join(", ")}.\n` +
              "1. Read each creative below; skip any that is not ready and say why.\n" +
              `2. ${platform ? "" : "Ask me which platform (platform_a or platform_b), then "}list the ad accounts (list_ad_accounts) and campaigns (list_campaigns) and ask me which campaign and ad set to use if it is not obvious.\n` +
              '3. Call build_ads_from_library with dryRun: true (each creative pairs with its own copy variants; pairing: "all" only if I ask for every combination) and show me each pair, the count and the checks; fix or drop what the platform rules refuse.\n' +
              "4. Only after I confirm, call build_ads_from_library again without dryRun (with an idempotencyKey), and report the ads created.",
          ),
          ...(await Promise.all(ids.map((id) => embedded(principal, creativeUri(id))))),
        ],
      };
    }
    case "weekly_performance_review":
      return {
        description: "Weekly performance review",
        messages: [
          text(
            "user",
            "Review the last 7 days of advertising.\n" +
              "1. Call get_insights at level campaign and creative for the last 7 days (since/until), with breakdown day for the top spenders.\n" +
              "2. From the creative performance report below, name the winners, losers and fatigued creatives with their figures (spend, CTR, CPA, ROAS).\n" +
              "3. Check list_creative_tests for tests that were decided this week.\n" +
              "4. Propose concrete changes (pause, budget changes, new variants to test) as a short list; change nothing until I confirm.",
          ),
          await embedded(principal, CREATIVE_PERFORMANCE_URI),
        ],
      };
    case "review_creative": {
      const id = requireArg(args, "creativeId");
      return {
        description: `Review creative ${id}`,
        messages: [
          text(
            "user",
            `Review creative ${id} (below).\n` +
              "1. Look at its media (mediaPath, fetched with the same key) and dimensions: is it fit for the placements it is used in?\n" +
              "2. Read its copy variants (list_copy_variants): clarity, length, call to action; suggest improvements.\n" +
              "3. Check its review status and open comments (get_review_status, list_comments).\n" +
              "4. Check its performance (get_insights at level creative with this id).\n" +
              "Summarize in three parts: what works, what to change, and the decision you recommend.",
          ),
          await embedded(principal, creativeUri(id)),
        ],
      };
    }
    default:
      return null;
  }
}
