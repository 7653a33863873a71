import Link from "next/link";
import { REVIEW_STATUSES } from "@/lib/review/schemas";
import { reviewStatusLabel } from "./status-badge";

/** Library filter by review status: links that keep the other query parameters (folder). */
export function ReviewStatusFilter({ current, params }: { current: string | null; params: Record<string, string | undefined> }) {
  const href = (review: string | null) => {
    const q = new URLSearchParams(Object.entries({ ...params, review: review ?? undefined }).filter((e): e is [string, string] => Boolean(e[1])));
    const s = q.toString();
    return `/dashboard/library${s ? `?${s}` : ""}`;
  };
  return (
    <nav aria-label="Filter by review status" className="mb-4 flex flex-wrap gap-2 text-sm">
      {[null, ...REVIEW_STATUSES].map((s) => (
        <Link
          key={s ?? "all"}
          href={href(s)}
          aria-current={current === s ? "page" : undefined}
          className={`rounded-full border px-3 py-1 ${current === s ? "border-indigo-600 bg-indigo-50 text-indigo-900" : "border-slate-300 text-slate-700 hover:bg-slate-100"}`}
        >
          {s ? reviewStatusLabel(s) : "All reviews"}
        </Link>
      ))}
    </nav>
  );
}
