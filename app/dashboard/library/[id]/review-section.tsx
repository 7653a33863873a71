import { can } from "@/lib/auth/authorize";
import type { Principal } from "@/lib/auth/principal";
import { roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { listComments } from "@/lib/review/comments";
import { getReviewStatus } from "@/lib/review/status";
import { listVersions } from "@/lib/review/versions";
import { ReviewPanel } from "./review-panel";

/** Loads the review panel of a creative the principal can see (status, threads, versions, possible reviewers). */
export async function ReviewSection({
  principal,
  creativeId,
  kind,
  fileName,
}: {
  principal: Principal;
  creativeId: string;
  kind: "image" | "video";
  fileName: string;
}) {
  const [{ review }, { threads }, { versions }, members] = await Promise.all([
    getReviewStatus(principal, { creativeId }),
    listComments(principal, { creativeId }),
    listVersions(principal, { creativeId }),
    getDb().membership.findMany({
      where: { workspaceId: principal.workspaceId },
      include: { user: { select: { id: true, name: true } } },
      orderBy: { createdAt: "asc" },
    }),
  ]);
  return (
    <ReviewPanel
      creativeId={creativeId}
      kind={kind}
      fileName={fileName}
      initialReview={review}
      initialThreads={threads}
      versions={versions}
      members={members.filter((m) => roleAllows(m.role, "review.approve")).map((m) => ({ userId: m.user.id, name: m.user.name }))}
      userId={principal.userId}
      can={{ comment: can(principal, "review.comment"), approve: can(principal, "review.approve"), share: can(principal, "review.share") }}
    />
  );
}
