"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { ApiError } from "@/components/dashboard/api";
import { Button, buttonClass } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Select } from "@/components/ui/field";
import { Alert, Badge, Card, Section } from "@/components/ui/misc";
import { CreativeTestForm, METRIC_NAME, sampleUnit } from "./creative-test-form";
import { amount, percent, tool, type CreativeTest, type Goal, type Label } from "./performance-api";
import { PerformanceCharts } from "./performance-charts";
import { RollupHealth } from "./rollup-health";

const message = (e: unknown) => (e instanceof ApiError ? e.message : "Something went wrong. Please try again.");
const LABEL_TONE = { winner: "green", loser: "rose", fatigued: "amber", neutral: "slate" } as const;

export function LabelChip({ label }: { label: Label }) {
  return <Badge tone={LABEL_TONE[label]}>{label}</Badge>;
}

function GoalControl({ canWrite }: { canWrite: boolean }) {
  const client = useQueryClient();
  const goal = useQuery({ queryKey: ["performance-goal"], queryFn: () => tool("get_performance_goal") });
  const [error, setError] = useState<string | null>(null);
  async function change(next: Goal) {
    setError(null);
    try {
      await tool("set_performance_goal", { goal: next });
      await client.invalidateQueries({ queryKey: ["performance-goal"] });
    } catch (e) {
      setError(message(e));
    }
  }
  return (
    <div className="flex flex-wrap items-center gap-3">
      <label className="flex items-center gap-2 text-sm text-slate-700">
        Primary goal
        <Select value={goal.data?.goal ?? "cpa"} disabled={!canWrite || !goal.data} onChange={(e) => void change(e.target.value as Goal)}>
          <option value="cpa">CPA (cost per conversion)</option>
          <option value="roas">ROAS (return on ad spend)</option>
        </Select>
      </label>
      <p className="text-xs text-slate-600">Labels compare each creative with the median on this goal; they follow at the next hourly rollup.</p>
      {error && <Alert>{error}</Alert>}
    </div>
  );
}

type SortKey = "spend" | "impressions" | "ctr" | "cpa" | "roas" | "conversions" | "frequency" | "label";
/** `title` heads the desktop column; `name` labels the figure on a phone card and in the sort select. */
const COLUMNS: { key: SortKey | null; title: string; name: string }[] = [
  { key: null, title: "Creative", name: "Creative" },
  { key: "label", title: "Label", name: "Label" },
  { key: "spend", title: "Spend", name: "Spend" },
  { key: "impressions", title: "Impr.", name: "Impressions" },
  { key: "ctr", title: "CTR", name: "CTR" },
  { key: "conversions", title: "Conv.", name: "Conversions" },
  { key: "cpa", title: "CPA", name: "CPA" },
  { key: "roas", title: "ROAS", name: "ROAS" },
  { key: "frequency", title: "Freq.", name: "Frequency" },
];

function CreativeTable() {
  const [sort, setSort] = useState<SortKey>("spend");
  const [order, setOrder] = useState<"asc" | "desc">("desc");
  const [label, setLabel] = useState<Label | "">("");
  const data = useQuery({
    queryKey: ["creative-performance", sort, order, label],
    queryFn: () => tool("list_creative_performance", { sort, order, ...(label ? { label } : {}) }),
  });
  const sortBy = (key: SortKey) => {
    if (key === sort) setOrder(order === "asc" ? "desc" : "asc");
    else {
      setSort(key);
      setOrder(key === "cpa" || key === "label" ? "asc" : "desc");
    }
  };
  return (
    <Section id="creatives" title="Creatives, last 30 days">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        {/* At phone width the table is cards without column headers: sorting is this select. */}
        <label className="flex items-center gap-2 text-sm text-slate-700 md:hidden">
          Sort by
          <Select
            value={`${sort}:${order}`}
            onChange={(e) => {
              const [key, direction] = e.target.value.split(":") as [SortKey, "asc" | "desc"];
              setSort(key);
              setOrder(direction);
            }}
          >
            {COLUMNS.filter((c) => c.key).map((c) => {
              const first = c.key === "cpa" || c.key === "label" ? "asc" : "desc";
              return (
                <option key={c.key} value={`${c.key}:${first}`}>
                  {c.name}
                </option>
              );
            })}
          </Select>
        </label>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          Label
          <Select value={label} onChange={(e) => setLabel(e.target.value as Label | "")}>
            <option value="">All</option>
            <option value="winner">Winners</option>
            <option value="loser">Losers</option>
            <option value="fatigued">Fatigued</option>
            <option value="neutral">Neutral</option>
          </Select>
        </label>
      </div>
      {data.error && <Alert>{message(data.error)}</Alert>}
      <Card className="md:overflow-x-auto">
        <table className="stack-table figure-cards w-full text-left text-sm md:min-w-[44rem]">
          <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
            <tr>
              {COLUMNS.map((c) => (
                <th
                  key={c.title}
                  scope="col"
                  className="px-3 py-2 font-medium"
                  aria-sort={c.key === sort ? (order === "asc" ? "ascending" : "descending") : undefined}
                >
                  {c.key ? (
                    <button
                      type="button"
                      onClick={() => sortBy(c.key!)}
                      // Hidden (so not a tab stop) while the header row is visually hidden at phone width.
                      className="hidden uppercase hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 md:inline"
                    >
                      {c.title}
                      {c.key === sort ? (order === "asc" ? " ↑" : " ↓") : ""}
                    </button>
                  ) : (
                    c.title
                  )}
                  {c.key && <span className="md:hidden">{c.name}</span>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {(data.data?.creatives ?? []).map((c) => (
              <tr key={c.creativeId} data-testid="creative-performance-row">
                <th scope="row" className="max-w-[14rem] truncate px-3 py-2 font-medium text-slate-900">
                  {c.fileName}
                  <span className="block text-xs font-normal text-slate-600">
                    {c.liveAds} live ad{c.liveAds === 1 ? "" : "s"}
                  </span>
                </th>
                <td data-label="Label" className="px-3 py-2" title={c.reason}>
                  <LabelChip label={c.label} />
                  <span className="sr-only">: {c.reason}</span>
                </td>
                <td data-label="Spend" className="px-3 py-2 tabular-nums">
                  {amount(c.spend, c.currency)}
                </td>
                <td data-label="Impressions" className="px-3 py-2 tabular-nums">
                  {c.impressions.toLocaleString("en-US")}
                </td>
                <td data-label="CTR" className="px-3 py-2 tabular-nums">
                  {percent(c.ctr)}
                </td>
                <td data-label="Conversions" className="px-3 py-2 tabular-nums">
                  {c.conversions}
                </td>
                <td data-label="CPA" className="px-3 py-2 tabular-nums">
                  {amount(c.cpa, c.currency)}
                </td>
                <td data-label="ROAS" className="px-3 py-2 tabular-nums">
                  {c.roas === null ? "–" : c.roas.toFixed(2)}
                </td>
                <td data-label="Frequency" className="px-3 py-2 tabular-nums">
                  {c.frequency === null ? "–" : c.frequency.toFixed(2)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {data.data && data.data.creatives.length === 0 && (
          <p className="p-4 text-sm text-slate-600">No creative has delivered yet: figures appear after the hourly rollup of active ads.</p>
        )}
      </Card>
    </Section>
  );
}

const NO_WRITE_REASON = "Your role can view creative tests but not start or stop them; ask an owner, admin or editor.";

function TestCard({ test, canWrite, onStop }: { test: CreativeTest; canWrite: boolean; onStop: () => void }) {
  const leader = test.progress.leaderProbability ?? 0;
  return (
    <Card className="p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold text-slate-900">{test.name}</h3>
        <Badge tone={test.status === "running" ? "sky" : test.outcome === "won" ? "green" : "slate"}>
          {test.status === "completed" ? test.outcome : test.status}
        </Badge>
      </div>
      <p className="mt-1 text-xs text-slate-600">
        On {METRIC_NAME[test.metric]} · decides at {Math.round(test.threshold * 100)}% probability to be best, after {test.minSample.toLocaleString("en-US")}{" "}
        {sampleUnit(test.metric)} per creative · ends {new Date(test.endsAt).toLocaleDateString()}
      </p>
      {test.status === "running" && (
        <div className="mt-3">
          <div className="flex justify-between text-xs text-slate-700">
            <span>Towards a decision</span>
            <span>{Math.round(Math.min(1, leader / test.threshold) * 100)}%</span>
          </div>
          <progress
            className="mt-1 h-2 w-full accent-indigo-600"
            max={test.threshold}
            value={Math.min(leader, test.threshold)}
            aria-label={`${test.name}: leader's probability to be best`}
          />
        </div>
      )}
      <ul className="mt-3 space-y-2">
        {test.progress.variants.map((v) => (
          <li key={v.creativeId} className="text-sm">
            <div className="flex flex-wrap justify-between gap-2">
              <span className="min-w-0 truncate font-medium text-slate-800">
                {v.fileName} {test.winnerCreativeId === v.creativeId && <Badge tone="green">winner</Badge>}
              </span>
              <span className="tabular-nums text-slate-700">
                {v.value === null ? "–" : test.metric === "cpa" ? amount(v.value) : percent(v.value)} · {Math.round(v.probabilityToBeBest * 100)}% best · sample{" "}
                {Math.min(100, Math.round((v.sample / test.minSample) * 100))}%
              </span>
            </div>
          </li>
        ))}
      </ul>
      {test.status === "running" && (
        <Button
          variant="secondary"
          size="sm"
          className="mt-3"
          disabled={!canWrite}
          aria-describedby={canWrite ? undefined : "tests-no-write"}
          onClick={onStop}
          aria-label={`Stop test ${test.name}`}
        >
          Stop test
        </Button>
      )}
    </Card>
  );
}

function CreativeTests({ canWrite }: { canWrite: boolean }) {
  const client = useQueryClient();
  const data = useQuery({ queryKey: ["creative-tests"], queryFn: () => tool("list_creative_tests", { limit: 20 }) });
  const [creating, setCreating] = useState(false);
  // Keyboard users land back on the button when the form closes (started or cancelled).
  const newTestButton = useRef<HTMLButtonElement>(null);
  const formWasOpen = useRef(false);
  useEffect(() => {
    if (formWasOpen.current && !creating) newTestButton.current?.focus();
    formWasOpen.current = creating;
  }, [creating]);
  const [notice, setNotice] = useState<string | null>(null);
  const [stopping, setStopping] = useState<CreativeTest | null>(null);
  const [stopBusy, setStopBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function stop(test: CreativeTest) {
    setStopBusy(true);
    try {
      await tool("stop_creative_test", { id: test.id });
      setError(null);
      setNotice(`Stopped “${test.name}”: it ends without a decision.`);
      await client.invalidateQueries({ queryKey: ["creative-tests"] });
    } catch (e) {
      setError(message(e));
    } finally {
      setStopBusy(false);
      setStopping(null);
    }
  }

  return (
    <Section id="tests" title="Creative tests">
      <div className="mb-4 flex flex-wrap items-center gap-3">
        {!creating && (
          <button
            ref={newTestButton}
            type="button"
            className={buttonClass()}
            onClick={() => (setCreating(true), setNotice(null))}
            disabled={!canWrite}
            aria-describedby={canWrite ? undefined : "tests-no-write"}
          >
            New creative test
          </button>
        )}
        {!canWrite && (
          <p id="tests-no-write" className="text-sm text-slate-700">
            {NO_WRITE_REASON}
          </p>
        )}
      </div>
      {creating && (
        <CreativeTestForm
          onDone={(created) => {
            setCreating(false);
            if (created) setNotice(`Started “${created.name}”: the hourly rollup tracks it until it is decided.`);
          }}
        />
      )}
      {notice && <Alert tone="green">{notice}</Alert>}
      {error && <Alert>{error}</Alert>}
      {data.error && <Alert>{message(data.error)}</Alert>}
      {data.data && data.data.tests.length === 0 && (
        <p className="text-sm text-slate-600">
          No creative tests yet: compare 2 to 5 creatives of one ad set on CTR, conversion rate or CPA (also through the create_creative_test tool).
        </p>
      )}
      <div className="mt-4 grid gap-4 md:grid-cols-2">
        {(data.data?.tests ?? []).map((t) => (
          <TestCard key={t.id} test={t} canWrite={canWrite} onStop={() => setStopping(t)} />
        ))}
      </div>
      <ConfirmDialog
        open={stopping !== null}
        title={`Stop “${stopping?.name ?? ""}”?`}
        confirmLabel="Stop test"
        busy={stopBusy}
        onCancel={() => setStopping(null)}
        onConfirm={() => stopping && void stop(stopping)}
      >
        The test ends now without a decision: no winner, no ads paused and no test.completed event. This cannot be undone.
      </ConfirmDialog>
    </Section>
  );
}

export function PerformanceOverview({ canWrite }: { canWrite: boolean }) {
  const goal = useQuery({ queryKey: ["performance-goal"], queryFn: () => tool("get_performance_goal") });
  return (
    <div className="space-y-8">
      <RollupHealth />
      <GoalControl canWrite={canWrite} />
      <PerformanceCharts goal={goal.data?.goal ?? "cpa"} />
      <CreativeTable />
      <CreativeTests canWrite={canWrite} />
    </div>
  );
}
