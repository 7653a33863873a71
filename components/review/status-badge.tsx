const LABELS: Record<string, { label: string; tone: string }> = {
  none: { label: "Not reviewed", tone: "bg-slate-100 text-slate-700" },
  in_review: { label: "In review", tone: "bg-sky-100 text-sky-900" },
  changes_requested: { label: "Changes requested", tone: "bg-amber-100 text-amber-900" },
  approved: { label: "Approved", tone: "bg-emerald-100 text-emerald-900" },
};

export const reviewStatusLabel = (status: string) => LABELS[status]?.label ?? status;

export function ReviewStatusBadge({ status }: { status: string }) {
  const { label, tone } = LABELS[status] ?? LABELS.none!;
  return (
    <span data-testid="review-status" data-status={status} className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${tone}`}>
      {label}
    </span>
  );
}
