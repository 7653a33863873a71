import { authorize, can } from "@/lib/auth/authorize";
import type { Principal } from "@/lib/auth/principal";
import { roleAllows } from "@/lib/auth/roles";
import { listCopies } from "@/lib/copy/copy-variants";
import { toCreative } from "@/lib/creatives/creative-schema";
import { findVisibleCreative } from "@/lib/creatives/list-creatives";
import { getDb } from "@/lib/db/client";
import { listComments } from "@/lib/review/comments";
import { getReviewStatus, reviewHistory } from "@/lib/review/status";
import { listVersions } from "@/lib/review/versions";

export { COPY_TEXT_LIMITS } from "@/lib/copy/copy-schema";

/**
 * What a creative's page reads: the creative (within the principal's folders), its copy, and its
 * review panel. Each read authorizes as its tool does (get_creative, list_copy_variants,
 * get_review_status, list_comments, list_creative_versions); null when the creative is not visible.
 */
export async function creativePage(principal: Principal, creativeId: string) {
  authorize(principal, "creatives.list");
  const row = await findVisibleCreative(principal, creativeId);
  if (!row) return null;
  authorize(principal, "copy.list");
  const { copies } = await listCopies(principal, { creativeId, limit: 200 });
  return { creative: toCreative(row), sizeBytes: row.sizeBytes, copies };
}

/** The review panel: status, threads, versions, the teammates who may approve, and what the principal may do. */
export async function reviewPanel(principal: Principal, creativeId: string) {
  authorize(principal, "creatives.list");
  const [{ review }, { history }, { threads }, { versions }, members] = await Promise.all([
    getReviewStatus(principal, { creativeId }),
    reviewHistory(principal, { creativeId, limit: 50 }),
    listComments(principal, { creativeId }),
    listVersions(principal, { creativeId }),
    getDb().membership.findMany({
      where: { workspaceId: principal.workspaceId },
      include: { user: { select: { id: true, name: true, email: true } } },
      orderBy: { createdAt: "asc" },
    }),
  ]);
  return {
    review,
    history,
    threads,
    versions,
    reviewers: members.filter((m) => roleAllows(m.role, "review.approve")).map((m) => ({ userId: m.user.id, name: m.user.name })),
    // Everyone in the workspace can be mentioned in a comment: `@` and their full name (or address's local part) is what add_comment reads.
    mentionable: members.map((m) => ({ userId: m.user.id, name: m.user.name, handle: m.user.name.trim() || m.user.email.split("@")[0]! })),
    can: {
      comment: can(principal, "review.comment"),
      approve: can(principal, "review.approve"),
      share: can(principal, "review.share"),
      version: can(principal, "review.version"),
    },
  };
}
