import Link from "next/link";
import { adAccountLabel as accountLabel } from "@/components/dashboard/ad-account-label";
import { formatCount, formatMoney, formatPercent } from "@/components/dashboard/format";
import { objectiveWords } from "@/components/dashboard/plain-words";
import { Button, buttonClass } from "@/components/ui/button";
import { Field, SelectField } from "@/components/ui/field";
import { Alert, Card, EmptyState, Section } from "@/components/ui/misc";
import type { AdsResultsView, ResultFigures } from "@/lib/read-models/ads-results";

const LEVEL_LABEL = { campaign: "Campaign", ad_set: "Ad set", ad: "Ad" } as const;
type Level = keyof typeof LEVEL_LABEL;

const COLUMNS = ["Impressions", "Clicks", "CTR", "Conversions", "CPA", "ROAS", "Spend"] as const;

/** Adds days to a YYYY-MM-DD day (UTC arithmetic: the day is already the account's). */
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

function Figures({ f, currency }: { f: ResultFigures; currency: string }) {
  const cells = [
    formatCount(f.impressions),
    formatCount(f.clicks),
    formatPercent(f.ctr),
    formatCount(f.conversions),
    f.cpa === null ? "–" : formatMoney(f.cpa, currency),
    f.roas === null ? "–" : f.roas.toFixed(2),
    formatMoney(f.spend, currency),
  ];
  return (
    <>
      {cells.map((text, i) => (
        <td key={COLUMNS[i]} data-label={COLUMNS[i]} className="whitespace-nowrap px-3 py-2 text-right tabular-nums">
          {text}
        </td>
      ))}
    </>
  );
}

/** Figures as data attributes, so tests read exact numbers rather than formatted text. */
const figureData = (f: ResultFigures) => ({
  "data-impressions": f.impressions,
  "data-clicks": f.clicks,
  "data-conversions": f.conversions,
  "data-spend": f.spend.toFixed(2),
});

function ResultRow({ level, id, name, detail, f, currency }: { level: Level; id: string; name: string; detail?: string; f: ResultFigures; currency: string }) {
  const indent = level === "campaign" ? "" : level === "ad_set" ? "md:pl-7" : "md:pl-11";
  return (
    <tr data-testid="result-row" data-level={level} data-id={id} {...figureData(f)} className={level === "campaign" ? "bg-slate-50/60" : ""}>
      <th scope="row" className={`max-w-[22rem] px-3 py-2 text-left font-normal ${indent}`}>
        <span className="block text-xs uppercase tracking-wide text-slate-600">
          {LEVEL_LABEL[level]}
          {detail ? ` · ${detail}` : ""}
        </span>
        <span className={`block truncate ${level === "ad" ? "text-slate-800" : "font-semibold text-slate-900"}`} title={name}>
          {name}
        </span>
      </th>
      <Figures f={f} currency={currency} />
    </tr>
  );
}

/**
 * Results on the Ads page: one ad account's delivery over a range of its days, per campaign, ad set
 * and ad with the account's totals in its currency, from what the hourly rollup stored. A plain GET
 * form, so the account and range are in the address (shareable, works before scripts load).
 */
export function AdsResults({ view }: { view: AdsResultsView }) {
  if (view.state === "no_rollup")
    return (
      <Section id="results" title="Results">
        <EmptyState title="No results yet">Figures appear here after the hourly performance rollup has read an active ad account.</EmptyState>
      </Section>
    );
  const account = view.state === "ok" ? view.results : view.account;
  const results = view.state === "ok" ? view.results : null;
  const presets = results
    ? [7, 30].map((days) => ({
        days,
        href: `/dashboard/ads?account=${encodeURIComponent(results.adAccountId)}&from=${addDays(results.today, -(days - 1))}&to=${results.today}#results`,
      }))
    : [];
  return (
    <Section id="results" title="Results">
      <Card className="p-4">
        <form
          method="get"
          action="/dashboard/ads#results"
          className="grid gap-3 sm:grid-cols-[repeat(3,minmax(0,12rem))_auto] sm:items-end"
          aria-label="Results range"
        >
          <SelectField id="results-account" name="account" label="Ad account" defaultValue={account.adAccountId}>
            {view.accounts.map((a) => (
              <option key={a.adAccountId} value={a.adAccountId}>
                {accountLabel(a, view.accounts)}
              </option>
            ))}
          </SelectField>
          <Field id="results-from" name="from" type="date" label="From" defaultValue={results?.since} required />
          <Field id="results-to" name="to" type="date" label="To" defaultValue={results?.until} required />
          <Button type="submit" variant="secondary" className="sm:justify-self-start">
            Show results
          </Button>
        </form>
        {presets.length > 0 && (
          <p className="mt-3 flex flex-wrap gap-2 text-sm">
            {presets.map((p) => (
              <Link key={p.days} href={p.href} className={buttonClass("ghost", "sm")}>
                Last {p.days} days
              </Link>
            ))}
          </p>
        )}
      </Card>
      {view.state === "invalid_range" && (
        <div className="mt-4" data-testid="results-range-problem">
          <Alert>These dates cannot be shown: {view.problem}</Alert>
        </div>
      )}
      {results && <ResultsTable results={results} label={accountLabel(results, view.accounts)} />}
    </Section>
  );
}

function ResultsTable({ results, label }: { results: Extract<AdsResultsView, { state: "ok" }>["results"]; label: string }) {
  const { currency } = results;
  const span = results.since === results.until ? results.since : `${results.since} to ${results.until}`;
  return (
    <div className="mt-4 space-y-2">
      <p
        className="text-sm text-slate-700"
        data-testid="results-range"
        data-account={results.adAccountId}
        data-currency={currency}
        data-since={results.since}
        data-until={results.until}
      >
        {label}, {span} (days in the account&apos;s time zone, {results.timeZone}; its today is {results.today}). Amounts in {currency}.
      </p>
      {results.campaigns.length === 0 ? (
        <EmptyState title="No delivery in these days">No ad of this account had impressions between {span}.</EmptyState>
      ) : (
        <Card className="overflow-hidden">
          {/* Focusable, so keyboard users can scroll the table between the phone cards and a wide screen. */}
          <div className="md:overflow-x-auto" tabIndex={0} role="region" aria-label="Results per campaign, ad set and ad">
            <table className="stack-table figure-cards w-full text-left text-sm">
              <caption className="sr-only">Results per campaign, ad set and ad, {span}, with the totals</caption>
              <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Name
                  </th>
                  {COLUMNS.map((c) => (
                    <th key={c} scope="col" className="px-3 py-2 text-right font-medium">
                      {c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {results.campaigns.flatMap((c) => [
                  <ResultRow
                    key={c.id}
                    level="campaign"
                    id={c.id}
                    name={c.name}
                    detail={c.objective ? objectiveWords(c.objective) : undefined}
                    f={c}
                    currency={currency}
                  />,
                  ...c.adSets.flatMap((s) => [
                    <ResultRow key={s.id} level="ad_set" id={s.id} name={s.name} f={s} currency={currency} />,
                    ...s.ads.map((a) => <ResultRow key={a.id} level="ad" id={a.id} name={a.name} f={a} currency={currency} />),
                    ...(s.moreAds
                      ? [
                          <tr key={`${s.id}-more`}>
                            <td colSpan={COLUMNS.length + 1} className="px-3 py-2 text-sm text-slate-600 md:pl-11">
                              and {s.moreAds} more ads with less spend (counted in the ad set above)
                            </td>
                          </tr>,
                        ]
                      : []),
                  ]),
                ])}
              </tbody>
              <tfoot className="border-t-2 border-slate-300 font-semibold text-slate-900">
                <tr data-testid="results-totals" {...figureData(results.totals)}>
                  <th scope="row" className="px-3 py-2 text-left">
                    Total
                  </th>
                  <Figures f={results.totals} currency={currency} />
                </tr>
              </tfoot>
            </table>
          </div>
        </Card>
      )}
    </div>
  );
}
