import type { Principal } from "@/lib/auth/principal";

/** Who acts on a review: a teammate (principal) or a review-link guest. */
export type ReviewActor =
  | { kind: "member"; userId: string; name: string; email: string }
  | { kind: "guest"; name: string; email: string | null; linkId: string };

export function memberActor(principal: Principal): ReviewActor {
  return { kind: "member", userId: principal.userId, name: principal.userName, email: principal.userEmail };
}
