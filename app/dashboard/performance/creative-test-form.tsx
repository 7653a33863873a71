"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError } from "@/components/dashboard/api";
import type { ToolInput } from "@/components/dashboard/tool-call";
import { Button } from "@/components/ui/button";
import { Field, SelectField } from "@/components/ui/field";
import { Alert } from "@/components/ui/misc";
import { tool, type CreativeTest } from "./performance-api";

type Metric = ToolInput<"create_creative_test">["metric"];

export const METRIC_NAME: Record<Metric, string> = { ctr: "CTR", conversion_rate: "conversion rate", cpa: "CPA" };
/** What minSample counts for a metric (the tool's rule: impressions for CTR, clicks otherwise). */
export const sampleUnit = (metric: Metric) => (metric === "ctr" ? "impressions" : "clicks");
const DEFAULT_SAMPLE: Record<Metric, string> = { ctr: "1000", conversion_rate: "100", cpa: "100" };
const MAX_CREATIVES = 5;

const message = (e: unknown) => (e instanceof ApiError ? e.message : "Something went wrong. Please try again.");

/** The creatives with an ad in the ad set (a test compares those), named by file where the library shows it. */
async function creativesInAdSet(adSetId: string): Promise<{ id: string; name: string }[]> {
  const { ads } = await tool("list_ads", { adSetId, limit: 200 });
  const firstAd = new Map<string, string>();
  for (const ad of ads) if (ad.status !== "deleted" && !firstAd.has(ad.creativeId)) firstAd.set(ad.creativeId, ad.name);
  return Promise.all(
    [...firstAd].map(async ([id, adName]) => {
      try {
        return { id, name: (await tool("get_creative", { id })).creative.fileName };
      } catch {
        return { id, name: adName }; // a creative in a folder the member cannot see: its ad's name
      }
    }),
  );
}

/** Starts a creative test (create_creative_test): the tool's own validation errors are shown as they come. */
export function CreativeTestForm({ onDone }: { onDone: (created: CreativeTest | null) => void }) {
  const client = useQueryClient();
  const [name, setName] = useState("");
  const [adSetId, setAdSetId] = useState("");
  const [picked, setPicked] = useState<string[]>([]);
  const [metric, setMetric] = useState<Metric>("ctr");
  const [minSample, setMinSample] = useState(DEFAULT_SAMPLE.ctr);
  const [maxDays, setMaxDays] = useState("14");
  const [threshold, setThreshold] = useState("95");
  const [pauseLosers, setPauseLosers] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const adSets = useQuery({ queryKey: ["test-form-ad-sets"], queryFn: () => tool("list_ad_sets", { limit: 100 }) });
  const usable = (adSets.data?.adSets ?? []).filter((s) => s.status !== "deleted" && s.status !== "archived");
  const creatives = useQuery({ queryKey: ["test-form-creatives", adSetId], queryFn: () => creativesInAdSet(adSetId), enabled: Boolean(adSetId) });

  // The sample's unit follows the metric: an untouched default follows it too.
  const changeMetric = (next: Metric) => {
    if (minSample === DEFAULT_SAMPLE[metric]) setMinSample(DEFAULT_SAMPLE[next]);
    setMetric(next);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const { test } = await tool("create_creative_test", {
        name,
        adSetId,
        metric,
        creativeIds: picked,
        minSample: Number(minSample),
        maxDays: Number(maxDays),
        threshold: Number(threshold) / 100,
        pauseLosers,
      });
      setError(null);
      await client.invalidateQueries({ queryKey: ["creative-tests"] });
      onDone(test);
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} aria-label="New creative test" className="mb-4 space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id="test-name" label="Test name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} autoFocus />
        <SelectField
          id="test-ad-set"
          label="Ad set or ad group"
          hint={adSets.data && !usable.length ? "No ad sets yet: create one with ads on the Ads page first." : undefined}
          value={adSetId}
          required
          onChange={(e) => (setAdSetId(e.target.value), setPicked([]))}
        >
          <option value="">{adSets.isLoading ? "Loading…" : "Choose one"}</option>
          {usable.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} ({s.platform === "platform_a" ? "Platform A" : "Platform B"}, {s.status})
            </option>
          ))}
        </SelectField>
      </div>
      {adSets.error && <Alert>{message(adSets.error)}</Alert>}

      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Creatives to compare (2 to {MAX_CREATIVES})</legend>
        {!adSetId && <p className="mt-1 text-sm text-slate-600">Choose an ad set to see the creatives that have ads in it.</p>}
        {adSetId && creatives.isLoading && <p className="mt-1 text-sm text-slate-600">Loading creatives…</p>}
        {creatives.error && <Alert>{message(creatives.error)}</Alert>}
        {creatives.data && creatives.data.length === 0 && <p className="mt-1 text-sm text-slate-600">No ads in this ad set yet.</p>}
        <ul className="mt-2 grid gap-2 sm:grid-cols-2">
          {(creatives.data ?? []).map((c) => {
            const checked = picked.includes(c.id);
            return (
              <li key={c.id}>
                <label className="flex items-center gap-2 rounded border border-slate-200 bg-white px-3 py-2 text-sm">
                  <input
                    type="checkbox"
                    checked={checked}
                    disabled={!checked && picked.length >= MAX_CREATIVES}
                    onChange={() => setPicked(checked ? picked.filter((x) => x !== c.id) : [...picked, c.id])}
                  />
                  <span className="min-w-0 truncate">{c.name}</span>
                </label>
              </li>
            );
          })}
        </ul>
        {creatives.data && creatives.data.length > 0 && (
          <p className="mt-1 text-xs text-slate-600" aria-live="polite">
            {picked.length} chosen
          </p>
        )}
      </fieldset>

      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <SelectField id="test-metric" label="Compare on" value={metric} onChange={(e) => changeMetric(e.target.value as Metric)}>
          <option value="ctr">CTR (clicks per impression)</option>
          <option value="conversion_rate">Conversion rate (per click)</option>
          <option value="cpa">CPA (cost per conversion)</option>
        </SelectField>
        <Field
          id="test-min-sample"
          label="Minimum sample"
          hint={`${sampleUnit(metric)} per creative`}
          type="number"
          min={1}
          step={1}
          required
          value={minSample}
          onChange={(e) => setMinSample(e.target.value)}
        />
        <Field
          id="test-max-days"
          label="Maximum days"
          hint="Lost when no winner by then"
          type="number"
          min={1}
          max={90}
          step={1}
          required
          value={maxDays}
          onChange={(e) => setMaxDays(e.target.value)}
        />
        <Field
          id="test-threshold"
          label="Threshold (%)"
          hint="Probability to be best the winner needs"
          type="number"
          min={50}
          max={99.9}
          step="any"
          required
          value={threshold}
          onChange={(e) => setThreshold(e.target.value)}
        />
      </div>
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input type="checkbox" className="mt-1" checked={pauseLosers} onChange={(e) => setPauseLosers(e.target.checked)} />
        <span>Pause the losing creatives&apos; ads in the ad set when a winner is found</span>
      </label>
      {error && <Alert>{error}</Alert>}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={() => onDone(null)}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? "Starting…" : "Start test"}
        </Button>
      </div>
    </form>
  );
}
