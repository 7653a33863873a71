"use server";
import { runTool } from "@/lib/dashboard/tool-action";
import type { SettableStatus } from "@/lib/review/schemas";

// Every review action is a tool call (the same checks as the API); see lib/dashboard/tool-action.ts.

export async function loadThreadsAction(creativeId: string, version: number) {
  return runTool("list_comments", { creativeId, version });
}

export async function setStatusAction(creativeId: string, status: SettableStatus) {
  return runTool("set_review_status", { creativeId, status });
}

export async function requestReviewAction(creativeId: string, reviewerIds: string[]) {
  return runTool("request_review", { creativeId, reviewerIds });
}

export async function addCommentAction(input: { creativeId: string; body: string; timeSeconds: number | null; pin: { x: number; y: number } | null }) {
  return runTool("add_comment", input);
}

export async function replyAction(commentId: string, body: string) {
  return runTool("reply_to_comment", { commentId, body });
}

export async function resolveAction(commentId: string, resolved: boolean) {
  return runTool(resolved ? "resolve_comment" : "reopen_comment", { commentId });
}

export async function deleteCommentAction(commentId: string) {
  return runTool("delete_comment", { commentId });
}

export async function reviewStateAction(creativeId: string) {
  return runTool("get_review_status", { creativeId });
}

export async function shareCreativeAction(input: {
  creativeId: string;
  name: string;
  password: string;
  expiresAt: string;
  comment: boolean;
  decide: boolean;
  download: boolean;
  internalComments?: boolean;
}) {
  return runTool("create_review_link", {
    name: input.name,
    creativeIds: [input.creativeId],
    password: input.password || undefined,
    expiresAt: input.expiresAt ? new Date(input.expiresAt).toISOString() : undefined,
    permissions: { comment: input.comment, decide: input.decide, download: input.download, internalComments: input.internalComments },
  });
}
