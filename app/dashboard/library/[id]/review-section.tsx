import type { Principal } from "@/lib/auth/principal";
import { currentClock } from "@/lib/dashboard/current";
import { reviewPanel } from "@/lib/read-models/creative";
import { ReviewHistory } from "./review-history";
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
  const [{ review, history, threads, versions, reviewers, mentionable, can }, clock] = await Promise.all([
    reviewPanel(principal, creativeId),
    currentClock(principal.userId),
  ]);
  return (
    <>
      <ReviewPanel
        creativeId={creativeId}
        kind={kind}
        fileName={fileName}
        initialReview={review}
        initialThreads={threads}
        versions={versions}
        members={reviewers}
        mentionable={mentionable}
        userId={principal.userId}
        can={can}
      />
      <ReviewHistory history={history} clock={clock} />
    </>
  );
}
