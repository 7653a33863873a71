"use server";
import { authorize } from "@/lib/auth/authorize";
import { createReviewLink, revokeReviewLink } from "@/lib/review/links";
import { runAsPrincipal } from "@/lib/dashboard/action-result";

export async function revokeLinkAction(id: string) {
  return runAsPrincipal((p) => (authorize(p, "review.share"), revokeReviewLink(p, { id })), "/dashboard/review-links");
}

export async function shareFolderAction(input: {
  folderId: string;
  name: string;
  password: string;
  expiresAt: string;
  comment: boolean;
  decide: boolean;
  download: boolean;
}) {
  return runAsPrincipal(
    (p) => (
      authorize(p, "review.share"),
      createReviewLink(p, {
        name: input.name,
        folderId: input.folderId,
        password: input.password || undefined,
        expiresAt: input.expiresAt ? new Date(input.expiresAt).toISOString() : undefined,
        permissions: { comment: input.comment, decide: input.decide, download: input.download },
      })
    ),
    "/dashboard/review-links",
  );
}
