"use client";
import { useQuery } from "@tanstack/react-query";
import { adAccountLabel } from "@/components/dashboard/ad-account-label";
import { formatDateTime } from "@/components/dashboard/format";
import { useMemberClock } from "@/components/dashboard/time-zone";
import { Alert } from "@/components/ui/misc";
import { tool } from "./performance-api";

/**
 * When the figures were last rolled up (the stalest ad account's last read), and an alert for each ad account whose
 * last rollup failed or left it out, a platform's second account as its own.
 */
export function RollupHealth() {
  const clock = useMemberClock();
  const time = (iso: string) => formatDateTime(iso, clock);
  const data = useQuery({ queryKey: ["creative-performance", "rollup"], queryFn: () => tool("list_creative_performance", { limit: 1 }) });
  const rollup = data.data?.rollup;
  if (!rollup) return null;
  const failed = rollup.accounts.filter((a) => a.lastError !== null);
  return (
    <div className="space-y-2" data-testid="rollup-health">
      <p className="text-sm text-slate-700">
        {rollup.figuresAsOf ? (
          <>
            Figures as of{" "}
            <time dateTime={rollup.figuresAsOf} data-testid="figures-as-of">
              {formatDateTime(rollup.figuresAsOf, { timeZone: rollup.figuresTimeZone ?? clock.timeZone, locale: clock.locale })}
            </time>
            {rollup.figuresTimeZone ? ` (the ad account’s time zone, ${rollup.figuresTimeZone})` : ""}
            {rollup.accounts.length > 1 ? `, the oldest of ${rollup.accounts.length} ad accounts’ last reads` : ""}, rolled up every hour.
          </>
        ) : (
          "No rollup yet: figures appear after the first hourly rollup of active ads."
        )}
      </p>
      {failed.map((a) => (
        <Alert key={a.adAccountId}>
          <strong>{adAccountLabel(a, rollup.accounts)}</strong>: the last rollup, {time(a.lastRunAt)}, failed: {a.lastError!.replace(/\.$/, "")}.{" "}
          {a.lastSuccessAt ? `Its figures are from ${time(a.lastSuccessAt)}.` : "Its figures have not been read yet."} The next hourly rollup tries again.
        </Alert>
      ))}
    </div>
  );
}
