import { formatDateTime, type MemberClock } from "@/components/dashboard/format";

type Change = { id: string; status: string; actorName: string; guest: boolean; note: string | null; createdAt: string };

const WHAT: Record<string, string> = {
  approved: "Approved",
  changes_requested: "Asked for changes",
  in_review: "Sent to review",
  none: "Reset",
};

/** Who decided what and when, newest first: a teammate or a named review-link guest. */
export function ReviewHistory({ history, clock }: { history: Change[]; clock: MemberClock }) {
  return (
    <section aria-labelledby="review-history-heading" className="space-y-2 border-t border-slate-200 pt-4">
      <h3 id="review-history-heading" className="text-sm font-semibold text-slate-900">
        Review history
      </h3>
      {history.length === 0 ? (
        <p className="text-sm text-slate-600">No decisions yet.</p>
      ) : (
        <ol className="space-y-1 text-sm" aria-label="Review history">
          {history.map((h) => (
            <li key={h.id} data-testid="review-history-entry" data-status={h.status} className="break-words text-slate-800">
              <span className="font-medium">{WHAT[h.status] ?? h.status}</span> by {h.actorName}{" "}
              <span className="text-slate-600">({h.guest ? "guest, through a review link" : "teammate"})</span> ·{" "}
              <time dateTime={h.createdAt}>{formatDateTime(h.createdAt, clock)}</time>
              {h.note ? <span className="block text-slate-600">“{h.note}”</span> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
