"use server";
import { authorize } from "@/lib/auth/authorize";
import type { CapabilityId } from "@/lib/auth/capabilities";
import type { Principal } from "@/lib/auth/principal";
import { runAsPrincipal } from "@/lib/dashboard/action-result";
import { addComment, deleteComment, listComments, replyToComment, setThreadResolved } from "@/lib/review/comments";
import { createReviewLink } from "@/lib/review/links";
import type { SettableStatus } from "@/lib/review/schemas";
import { getReviewStatus, requestReview, setReviewStatus } from "@/lib/review/status";

/** Runs a review action as the signed-in member, with the same capability check the tool makes. */
const as = <T>(capability: CapabilityId, fn: (p: Principal) => Promise<T>) =>
  runAsPrincipal((p) => {
    authorize(p, capability);
    return fn(p);
  });

export async function loadThreadsAction(creativeId: string, version: number) {
  return as("creatives.list", (p) => listComments(p, { creativeId, version }));
}

export async function setStatusAction(creativeId: string, status: SettableStatus) {
  return as("review.approve", (p) => setReviewStatus(p, { creativeId, status }));
}

export async function requestReviewAction(creativeId: string, reviewerIds: string[]) {
  return as("review.comment", (p) => requestReview(p, { creativeId, reviewerIds }));
}

export async function addCommentAction(input: { creativeId: string; body: string; timeSeconds: number | null; pin: { x: number; y: number } | null }) {
  return as("review.comment", (p) => addComment(p, input));
}

export async function replyAction(commentId: string, body: string) {
  return as("review.comment", (p) => replyToComment(p, { commentId, body }));
}

export async function resolveAction(commentId: string, resolved: boolean) {
  return as("review.comment", (p) => setThreadResolved(p, { commentId, resolved }));
}

export async function deleteCommentAction(commentId: string) {
  return as("review.comment", (p) => deleteComment(p, { commentId }));
}

export async function reviewStateAction(creativeId: string) {
  return as("creatives.list", (p) => getReviewStatus(p, { creativeId }));
}

export async function shareCreativeAction(input: {
  creativeId: string;
  name: string;
  password: string;
  expiresAt: string;
  comment: boolean;
  decide: boolean;
  download: boolean;
}) {
  return as("review.share", (p) =>
    createReviewLink(p, {
      name: input.name,
      creativeIds: [input.creativeId],
      password: input.password || undefined,
      expiresAt: input.expiresAt ? new Date(input.expiresAt).toISOString() : undefined,
      permissions: { comment: input.comment, decide: input.decide, download: input.download },
    }),
  );
}
