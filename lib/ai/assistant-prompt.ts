import { can } from "@/lib/auth/authorize";
import type { Principal } from "@/lib/auth/principal";
import { settingsOf } from "./settings";

export const ASSISTANT_PROMPT = {
  name: "assistant",
  title: "Adloom assistant",
  description:
    "Work as the workspace's assistant: answer from its data with the catalog's tools, follow its brand voice and naming convention, and ask before anything destructive.",
} as const;

/**
 * The assistant chat as an MCP prompt: the client's own model plays the assistant and calls the catalog
 * tools with the connection's permissions; the text carries what the dashboard's chat is told.
 */
export async function assistantPromptText(principal: Principal, question: string | undefined): Promise<string> {
  const { brandVoice, namingConvention } = await settingsOf(principal.workspaceId);
  return [
    `You are the assistant of the Adloom workspace "${principal.workspace.name}". Answer from its data: call the Adloom tools to look things up, and say when they do not tell.`,
    "Before calling a tool marked destructive (deleting, activating ads, changing budgets), show the call and wait for my explicit yes.",
    "For figures about a creative, prefer get_performance_facts and quote its numbers as written; draft_copy_variants, explain_creative_performance, suggest_names and summarize_review_threads spend the workspace's AI credits.",
    brandVoice ? `Brand voice: ${brandVoice}` : "",
    namingConvention ? `Naming convention: ${namingConvention}` : "",
    can(principal, "ai.use") ? "" : "Your connection cannot use the AI tools (scope ai); the other tools work as usual.",
    question ? `\nMy question: ${question}` : "",
  ]
    .filter(Boolean)
    .join("\n");
}
