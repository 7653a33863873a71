"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { ApiError } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { Field, Select, SelectField } from "@/components/ui/field";
import { Alert, Badge, Card, EmptyState, Section } from "@/components/ui/misc";
import { FlowsSection } from "./flows-section";
import type { ToolInput, ToolOutput } from "@/components/dashboard/tool-call";
import { tool } from "./automation-api";

const METRICS = ["spend", "impressions", "reach", "clicks", "ctr", "cpc", "cpm", "conversions", "cpa", "conversion_value", "roas", "frequency"] as const;
const METRIC_LABEL: Record<string, string> = { ctr: "CTR (%)", cpc: "CPC", cpm: "CPM", cpa: "CPA", roas: "ROAS", conversion_value: "conversion value" };
const OPERATORS = [
  ["gt", ">"],
  ["gte", "≥"],
  ["lt", "<"],
  ["lte", "≤"],
  ["eq", "="],
] as const;
const WINDOWS = [
  ["today", "Today"],
  ["last_3_days", "Last 3 days"],
  ["last_7_days", "Last 7 days"],
  ["last_14_days", "Last 14 days"],
  ["last_30_days", "Last 30 days"],
] as const;
const LEVELS = [
  ["ads", "Ads"],
  ["ad_sets", "Ad sets / ad groups"],
  ["campaigns", "Campaigns"],
] as const;
const ACTIONS = [
  ["pause", "Pause"],
  ["activate", "Activate"],
  ["increase_budget", "Raise budget"],
  ["decrease_budget", "Lower budget"],
] as const;

type Rule = ToolOutput<"list_rules">["rules"][number];
type Definition = NonNullable<ToolInput<"preview_rule">["definition"]>;
type Condition = Definition["conditions"][number];

const message = (e: unknown) => (e instanceof ApiError ? e.message : "Something went wrong. Please try again.");

/** The editor's form state: text fields as typed, turned into a definition for preview and save. */
interface Draft {
  name: string;
  conditions: { metric: Condition["metric"]; operator: Condition["operator"]; value: string }[];
  match: "all" | "any";
  window: Definition["window"];
  level: Definition["scope"]["level"];
  nameContains: string;
  ids: string;
  action: Definition["action"]["type"];
  percent: string;
  cap: string;
  cooldown: string;
}

const EMPTY: Draft = {
  name: "",
  conditions: [{ metric: "spend", operator: "gt", value: "50" }],
  match: "all",
  window: "last_3_days",
  level: "ads",
  nameContains: "",
  ids: "",
  action: "pause",
  percent: "20",
  cap: "100",
  cooldown: "1440",
};

function draftOf(rule: Rule): Draft {
  const cap = rule.action.maxBudgetMinor ?? rule.action.minBudgetMinor;
  return {
    name: rule.name,
    conditions: rule.conditions.map((c) => ({ metric: c.metric, operator: c.operator, value: String(c.value) })),
    match: rule.match,
    window: rule.window,
    level: rule.scope.level,
    nameContains: rule.scope.nameContains ?? "",
    ids: (rule.scope.ids ?? []).join(", "),
    action: rule.action.type,
    percent: String(rule.action.percent ?? 20),
    cap: cap ? String(cap / 100) : "100",
    cooldown: String(rule.cooldownMinutes),
  };
}

function definitionOf(d: Draft): Definition {
  const ids = d.ids
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const budget = d.action === "increase_budget" || d.action === "decrease_budget";
  const capMinor = Math.round(Number(d.cap) * 100);
  return {
    conditions: d.conditions.map((c) => ({ metric: c.metric, operator: c.operator, value: Number(c.value) })),
    match: d.match,
    window: d.window,
    scope: { level: d.level, ...(ids.length ? { ids } : {}), ...(d.nameContains.trim() ? { nameContains: d.nameContains.trim() } : {}) },
    action: budget
      ? { type: d.action, percent: Number(d.percent), ...(d.action === "increase_budget" ? { maxBudgetMinor: capMinor } : { minBudgetMinor: capMinor }) }
      : { type: d.action },
  };
}

function describeRule(rule: Rule): string {
  const conds = rule.conditions
    .map((c) => `${METRIC_LABEL[c.metric] ?? c.metric} ${OPERATORS.find((o) => o[0] === c.operator)?.[1]} ${c.value}`)
    .join(rule.match === "all" ? " and " : " or ");
  const action = ACTIONS.find((a) => a[0] === rule.action.type)?.[1] ?? rule.action.type;
  const level = LEVELS.find((l) => l[0] === rule.scope.level)?.[1].toLowerCase();
  const which = rule.scope.nameContains ? ` named like “${rule.scope.nameContains}”` : rule.scope.ids ? ` (${rule.scope.ids.length} chosen)` : "";
  return `${action} ${level}${which} when ${conds}, ${WINDOWS.find((w) => w[0] === rule.window)?.[1].toLowerCase()}${rule.action.percent ? ` by ${rule.action.percent}%` : ""}`;
}

export function RulesEditor({ canManage, canLaunch, canManageFlows }: { canManage: boolean; canLaunch: boolean; canManageFlows: boolean }) {
  const rules = useQuery({ queryKey: ["rules"], queryFn: () => tool("list_rules", { limit: 100 }) });
  const [editing, setEditing] = useState<Rule | "new" | null>(null);
  const client = useQueryClient();

  return (
    <div className="space-y-8">
      <Section id="rules" title="Rules">
        {rules.error && <Alert>{message(rules.error)}</Alert>}
        {!canManage && (
          <p id="rules-reason" data-testid="rules-disabled-reason" className="mb-3 text-sm text-slate-700">
            Your role can see rules and their runs but not create, edit or delete them (needs &quot;rules.manage&quot;: editors and above).
          </p>
        )}
        {editing === null && (
          <div className="mb-4">
            <Button onClick={() => setEditing("new")} disabled={!canManage} aria-describedby={canManage ? undefined : "rules-reason"}>
              New rule
            </Button>
          </div>
        )}
        {editing !== null && (
          <RuleForm
            key={editing === "new" ? "new" : editing.id}
            rule={editing === "new" ? null : editing}
            canLaunch={canLaunch}
            onDone={async () => {
              setEditing(null);
              await client.invalidateQueries({ queryKey: ["rules"] });
            }}
          />
        )}
        {rules.data && rules.data.rules.length === 0 && editing === null && (
          <EmptyState title="No rules yet">A rule pauses, activates or re-budgets your ads when their numbers cross a line, checked every hour.</EmptyState>
        )}
        <ul className="mt-4 space-y-3" aria-label="Rules">
          {(rules.data?.rules ?? []).map((rule) => (
            <li key={rule.id}>
              <RuleCard rule={rule} canManage={canManage} onEdit={() => setEditing(rule)} />
            </li>
          ))}
        </ul>
      </Section>
      <FlowsSection canManage={canManageFlows} />
    </div>
  );
}

function RuleCard({ rule, canManage, onEdit }: { rule: Rule; canManage: boolean; onEdit: () => void }) {
  const [showRuns, setShowRuns] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const client = useQueryClient();
  const remove = async () => {
    try {
      await tool("delete_rule", { id: rule.id });
      await client.invalidateQueries({ queryKey: ["rules"] });
    } catch (err) {
      setError(message(err));
    }
  };
  return (
    <Card className="p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold text-slate-900">{rule.name}</h3>
          <p className="mt-1 text-sm text-slate-600">{describeRule(rule)}</p>
          <p className="mt-1 text-xs text-slate-600">
            Cooldown {rule.cooldownMinutes} min ·{" "}
            {rule.lastRun
              ? `last run ${rule.lastRun.hour.slice(0, 16).replace("T", " ")}: ${rule.lastRun.matchCount} matched, ${rule.lastRun.actionsTaken} changed`
              : "not run yet"}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone={rule.enabled ? "green" : "slate"}>{rule.enabled ? "on" : "off"}</Badge>
          <Button size="sm" variant="secondary" aria-expanded={showRuns} onClick={() => setShowRuns((v) => !v)}>
            Run log
          </Button>
          <Button size="sm" variant="secondary" onClick={onEdit} disabled={!canManage} aria-describedby={canManage ? undefined : "rules-reason"}>
            Edit
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={remove}
            aria-label={`Delete rule ${rule.name}`}
            disabled={!canManage}
            aria-describedby={canManage ? undefined : "rules-reason"}
          >
            Delete
          </Button>
        </div>
      </div>
      {error && <Alert>{error}</Alert>}
      {showRuns && <RunLog ruleId={rule.id} />}
    </Card>
  );
}

function RunLog({ ruleId }: { ruleId: string }) {
  const runs = useQuery({ queryKey: ["rule-runs", ruleId], queryFn: () => tool("list_rule_runs", { id: ruleId, limit: 50 }) });
  if (runs.error) return <Alert>{message(runs.error)}</Alert>;
  if (!runs.data) return <p className="mt-3 text-sm text-slate-600">Loading runs…</p>;
  if (!runs.data.runs.length) return <p className="mt-3 text-sm text-slate-600">No runs yet: rules run every hour.</p>;
  return (
    <ol className="mt-3 space-y-2 border-t border-slate-200 pt-3" aria-label="Run log">
      {runs.data.runs.map((run) => (
        <li key={run.id} className="text-sm">
          <p className="font-medium text-slate-800">
            {run.hour.slice(0, 16).replace("T", " ")} · {run.matchCount} matched · {run.actionsTaken} changed
            {run.errors.length > 0 && <span className="text-rose-700"> · {run.errors.length} failed</span>}
          </p>
          <ul className="ml-4 list-disc text-slate-600">
            {run.matches.map((m) => (
              <li key={m.objectId}>
                {m.name} ({m.campaignName}): {m.skipped ? `skipped, ${m.skipped.replace(/_/g, " ")}` : m.change}
              </li>
            ))}
            {run.errors.map((e, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a finished run's error list never changes
              <li key={i} className="text-rose-700">
                {e.name}: {e.message}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}

function RuleForm({ rule, canLaunch, onDone }: { rule: Rule | null; canLaunch: boolean; onDone: () => Promise<void> }) {
  const [draft, setDraft] = useState<Draft>(rule ? draftOf(rule) : EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const budget = draft.action === "increase_budget" || draft.action === "decrease_budget";

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const body = { name: draft.name, cooldownMinutes: Number(draft.cooldown), ...definitionOf(draft) };
      if (rule) await tool("update_rule", { id: rule.id, ...body });
      else await tool("create_rule", body);
      setError(null);
      await onDone();
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} aria-label={rule ? `Edit rule ${rule.name}` : "New rule"} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <Field id="rule-name" label="Rule name" value={draft.name} onChange={(e) => set("name", e.target.value)} required maxLength={200} />
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Conditions</legend>
        <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
          <label htmlFor="rule-match">Match</label>
          <Select id="rule-match" className="w-auto" value={draft.match} onChange={(e) => set("match", e.target.value as Draft["match"])}>
            <option value="all">all conditions</option>
            <option value="any">any condition</option>
          </Select>
          <label htmlFor="rule-window">over</label>
          <Select id="rule-window" className="w-auto" value={draft.window} onChange={(e) => set("window", e.target.value as Draft["window"])}>
            {WINDOWS.map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </Select>
        </div>
        {draft.conditions.map((c, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: conditions have no id; each row is controlled inputs over its position
          <div key={i} className="grid grid-cols-[1fr_4.5rem_1fr_auto] items-center gap-2">
            <Select
              aria-label={`Condition ${i + 1} metric`}
              value={c.metric}
              onChange={(e) =>
                set(
                  "conditions",
                  draft.conditions.map((x, j) => (j === i ? { ...x, metric: e.target.value as Condition["metric"] } : x)),
                )
              }
            >
              {METRICS.map((m) => (
                <option key={m} value={m}>
                  {METRIC_LABEL[m] ?? m}
                </option>
              ))}
            </Select>
            <Select
              aria-label={`Condition ${i + 1} operator`}
              value={c.operator}
              onChange={(e) =>
                set(
                  "conditions",
                  draft.conditions.map((x, j) => (j === i ? { ...x, operator: e.target.value as Condition["operator"] } : x)),
                )
              }
            >
              {OPERATORS.map(([v, l]) => (
                <option key={v} value={v}>
                  {l}
                </option>
              ))}
            </Select>
            <input
              aria-label={`Condition ${i + 1} value`}
              type="number"
              min={0}
              step="any"
              required
              className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900"
              value={c.value}
              onChange={(e) =>
                set(
                  "conditions",
                  draft.conditions.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)),
                )
              }
            />
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Remove condition ${i + 1}`}
              disabled={draft.conditions.length === 1}
              onClick={() =>
                set(
                  "conditions",
                  draft.conditions.filter((_, j) => j !== i),
                )
              }
            >
              ✕
            </Button>
          </div>
        ))}
        <Button
          size="sm"
          variant="secondary"
          disabled={draft.conditions.length >= 10}
          onClick={() => set("conditions", [...draft.conditions, { metric: "ctr", operator: "lt", value: "1" }])}
        >
          Add condition
        </Button>
        <p className="text-xs text-slate-600">
          Money in the account currency; CTR in percent. A ratio with nothing to divide by (CPA without conversions) never matches.
        </p>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-3">
        <SelectField id="rule-level" label="Applies to" value={draft.level} onChange={(e) => set("level", e.target.value as Draft["level"])}>
          {LEVELS.map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </SelectField>
        <Field
          id="rule-name-filter"
          label="Name contains"
          hint="Optional"
          value={draft.nameContains}
          onChange={(e) => set("nameContains", e.target.value)}
          maxLength={200}
        />
        <Field id="rule-ids" label="Only these ids" hint="Optional, comma-separated" value={draft.ids} onChange={(e) => set("ids", e.target.value)} />
      </div>
      <div className="grid gap-3 sm:grid-cols-4">
        <SelectField id="rule-action" label="Action" value={draft.action} onChange={(e) => set("action", e.target.value as Draft["action"])}>
          {ACTIONS.filter(([v]) => v === "pause" || canLaunch).map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </SelectField>
        {budget && (
          <>
            <Field
              id="rule-percent"
              label="By percent"
              type="number"
              min={1}
              max={draft.action === "decrease_budget" ? 99 : 500}
              step="any"
              value={draft.percent}
              onChange={(e) => set("percent", e.target.value)}
              required
            />
            <Field
              id="rule-cap"
              label={draft.action === "increase_budget" ? "Never above (per day)" : "Never below (per day)"}
              type="number"
              min={0.01}
              step="0.01"
              value={draft.cap}
              onChange={(e) => set("cap", e.target.value)}
              required
            />
          </>
        )}
        <Field
          id="rule-cooldown"
          label="Cooldown (minutes)"
          hint="Leave an object alone this long after acting"
          type="number"
          min={0}
          step={1}
          value={draft.cooldown}
          onChange={(e) => set("cooldown", e.target.value)}
          required
        />
      </div>
      <LivePreview definition={definitionOf(draft)} ruleId={rule?.id} cooldownMinutes={Number(draft.cooldown)} />
      {error && <Alert>{error}</Alert>}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={() => void onDone()}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy || !draft.name.trim()}>
          {rule ? "Save rule" : "Create rule"}
        </Button>
      </div>
    </form>
  );
}

/** The dry run of the definition as it is being edited: debounced, so typing does not flood the platform. */
function LivePreview({ definition, ruleId, cooldownMinutes }: { definition: Definition; ruleId?: string; cooldownMinutes: number }) {
  const key = JSON.stringify({ definition, ruleId, cooldownMinutes });
  const [settled, setSettled] = useState(key);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(key), 500);
    return () => clearTimeout(timer);
  }, [key]);
  const preview = useQuery({
    queryKey: ["rule-preview", settled],
    queryFn: () => {
      const args = JSON.parse(settled) as { definition: Definition; ruleId?: string; cooldownMinutes: number };
      return tool("preview_rule", {
        definition: args.definition,
        ...(args.ruleId
          ? { id: args.ruleId, ...(Number.isInteger(args.cooldownMinutes) && args.cooldownMinutes >= 0 ? { cooldownMinutes: args.cooldownMinutes } : {}) }
          : {}),
      });
    },
    retry: false,
  });
  return (
    <section aria-label="Live preview" aria-live="polite" className="rounded-md bg-slate-50 p-3">
      <h3 className="text-sm font-semibold text-slate-900">Preview: what the rule would do now</h3>
      {preview.error && <p className="mt-1 text-sm text-rose-700">{message(preview.error)}</p>}
      {!preview.data && !preview.error && <p className="mt-1 text-sm text-slate-600">Checking…</p>}
      {preview.data && (
        <>
          <p className="mt-1 text-sm text-slate-700" data-testid="preview-summary">
            {preview.data.matches.length} of {preview.data.inScope} match; {preview.data.actions} would change
            {preview.data.window ? ` (${preview.data.window.since} to ${preview.data.window.until})` : ""}
          </p>
          <ul className="mt-2 space-y-1 text-sm">
            {preview.data.matches.map((m) => (
              <li key={m.objectId} className="flex flex-wrap justify-between gap-x-3 border-b border-slate-200 pb-1 last:border-0">
                <span className="font-medium text-slate-800">
                  {m.name} <span className="font-normal text-slate-600">· {m.campaignName}</span>
                </span>
                <span className={m.act ? "text-slate-900" : "text-slate-600"}>
                  {m.act ? m.change : `no change (${m.skipped?.replace(/_/g, " ")})`} · spend {m.metrics.spend} · CTR {m.metrics.ctr ?? "–"}%
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
