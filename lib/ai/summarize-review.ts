import type { Principal } from "@/lib/auth/principal";
import { listComments } from "@/lib/review/comments";
import { type AiCost, meteredCall } from "./metered";
import type { AiRuntime } from "./provider";

/** Enough of a long discussion to summarize without reserving for an unbounded prompt. */
const MAX_PROMPT_CHARS = 24_000;

/** Summarizes the review threads of a creative's version: what is asked, what is settled, what is still open. */
export async function summarizeReviewThreads(
  principal: Principal,
  input: { creativeId: string; version?: number },
  runtime?: AiRuntime | null,
): Promise<{ versionNumber: number; openThreads: number; resolvedThreads: number; summary: string; cost: AiCost | null }> {
  const { versionNumber, threads } = await listComments(principal, input);
  const open = threads.filter((t) => !t.resolved).length;
  const counts = { versionNumber, openThreads: open, resolvedThreads: threads.length - open };
  // Nothing to read: no model call, nothing charged.
  if (!threads.length) return { ...counts, summary: "There are no review comments on this version.", cost: null };
  const transcript = threads
    .map((t) => [`[${t.resolved ? "resolved" : "open"}] ${t.authorName}: ${t.body}`, ...t.replies.map((r) => `  ${r.authorName}: ${r.body}`)].join("\n"))
    .join("\n\n")
    .slice(0, MAX_PROMPT_CHARS);
  const answer = await meteredCall(
    principal,
    {
      feature: "summarize_review_threads",
      system:
        "Summarize this creative review discussion for the person who must act on it: the changes asked for, what was agreed or resolved, and what is still open. At most 150 words; no preamble.",
      messages: [{ role: "user", content: transcript }],
      maxOutputTokens: 400,
    },
    runtime,
  );
  return { ...counts, summary: answer.text.trim(), cost: answer.cost };
}
