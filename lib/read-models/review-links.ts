import { authorize } from "@/lib/auth/authorize";
import type { Principal } from "@/lib/auth/principal";
import { listReviewLinks } from "@/lib/review/links";

/** The review links the principal may manage, authorized as list_review_links is (`review.share`). */
export async function reviewLinks(principal: Principal, input: { limit: number; cursor?: string }) {
  authorize(principal, "review.share");
  return listReviewLinks(principal, input);
}
