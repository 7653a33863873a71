"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { Select } from "@/components/ui/field";
import { Alert, Card } from "@/components/ui/misc";
import { tool, type Goal, type Insights } from "./performance-api";

const COLORS = ["#4f46e5", "#0f766e", "#b45309", "#be123c", "#475569"];
const TOP = 5;

type Level = "creative" | "campaign";
type Metric = "spend" | "ctr" | "cpa" | "roas";

/** Per day and object (the top five by spend): one series per object and ad account (a creative on two accounts has two). */
function series(insights: Insights, metric: Metric): { days: Record<string, number | string | null>[]; names: { id: string; name: string }[] } {
  const key = (r: Insights["rows"][number]) => `${r.id}:${r.adAccountId ?? ""}`;
  const perAccount = new Set(insights.rows.map((r) => r.currency)).size > 1;
  const names = [
    ...new Map(insights.rows.map((r) => [key(r), { id: key(r), name: perAccount && r.currency ? `${r.name} (${r.currency})` : r.name }])).values(),
  ];
  const byDay = new Map<string, Record<string, number | string | null>>();
  for (const r of insights.rows) {
    const day = byDay.get(r.date!) ?? { date: r.date };
    const v = r[metric];
    day[key(r)] = v === null ? null : metric === "ctr" ? Math.round(v * 10_000) / 100 : Math.round(v * 100) / 100;
    byDay.set(r.date!, day);
  }
  return { days: [...byDay.values()].sort((a, b) => String(a.date).localeCompare(String(b.date))), names };
}

function Chart({ title, insights, metric, unit }: { title: string; insights: Insights; metric: Metric; unit: string }) {
  const { days, names } = series(insights, metric);
  return (
    <Card className="p-4">
      <figure aria-label={`${title} per day, ${insights.since} to ${insights.until}`}>
        <figcaption className="mb-2 text-sm font-medium text-slate-800">
          {title} <span className="font-normal text-slate-600">({unit})</span>
        </figcaption>
        <div className="h-56 w-full min-w-0">
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={days} margin={{ top: 4, right: 8, bottom: 4, left: 0 }}>
              <CartesianGrid stroke="#e2e8f0" strokeDasharray="3 3" />
              <XAxis dataKey="date" tick={{ fontSize: 11, fill: "#475569" }} tickFormatter={(d: string) => d.slice(5)} minTickGap={16} />
              <YAxis tick={{ fontSize: 11, fill: "#475569" }} width={44} />
              <Tooltip />
              <Legend wrapperStyle={{ fontSize: 11 }} />
              {names.map((n, i) => (
                <Line
                  key={n.id}
                  type="monotone"
                  dataKey={n.id}
                  name={n.name.length > 24 ? `${n.name.slice(0, 22)}…` : n.name}
                  stroke={COLORS[i % COLORS.length]}
                  dot={false}
                  connectNulls
                  isAnimationActive={false}
                />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </div>
      </figure>
    </Card>
  );
}

function dayBefore(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

/** Spend, CTR and the goal's metric per complete day for the top creatives or campaigns, from get_insights. */
export function PerformanceCharts({ goal }: { goal: Goal }) {
  const [level, setLevel] = useState<Level>("creative");
  const data = useQuery({
    queryKey: ["insights", level],
    queryFn: async () => {
      const totals = await tool("get_insights", { level });
      const ids = [...new Set(totals.rows.map((r) => r.id))].slice(0, TOP);
      if (!ids.length) return totals;
      // The range ends today on the account's clock: a day still delivering would read as a collapse, so the
      // lines end with the last complete day.
      const lastCompleteDay = dayBefore(totals.until);
      if (lastCompleteDay < totals.since) return { ...totals, rows: [] };
      return tool("get_insights", { level, ids, breakdown: "day", since: totals.since, until: lastCompleteDay });
    },
  });
  return (
    <section aria-labelledby="charts-heading" className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="charts-heading" className="text-lg font-semibold text-slate-900">
          Over time
        </h2>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          Per
          <Select value={level} onChange={(e) => setLevel(e.target.value as Level)} aria-label="Chart per creative or campaign">
            <option value="creative">creative</option>
            <option value="campaign">campaign</option>
          </Select>
        </label>
      </div>
      {data.error && <Alert>{(data.error as Error).message}</Alert>}
      {data.data && data.data.rows.length === 0 && (
        <p className="text-sm text-slate-600">No complete day of delivery rolled up yet: charts appear after the first full day of active ads.</p>
      )}
      {data.data && data.data.rows.length > 0 && (
        <p className="text-sm text-slate-600">
          Per day, through {data.data.until} (the last complete day on the ad account&rsquo;s clock; today is still delivering).
        </p>
      )}
      {data.data && data.data.rows.length > 0 && (
        <div className="grid gap-4 lg:grid-cols-3">
          <Chart title="Spend" insights={data.data} metric="spend" unit={data.data.currency ?? "each ad account's currency"} />
          <Chart title="CTR" insights={data.data} metric="ctr" unit="%" />
          {goal === "cpa" ? (
            <Chart title="CPA" insights={data.data} metric="cpa" unit={data.data.currency ?? "each ad account's currency"} />
          ) : (
            <Chart title="ROAS" insights={data.data} metric="roas" unit="value per spend" />
          )}
        </div>
      )}
    </section>
  );
}
