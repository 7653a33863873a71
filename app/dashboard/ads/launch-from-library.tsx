"use client";
import { CreativeThumbnail } from "@/components/ui/creative-thumbnail";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError } from "@/components/dashboard/api";
import type { ToolInput, ToolOutput } from "@/components/dashboard/tool-call";
import { Button } from "@/components/ui/button";
import { Field, Select } from "@/components/ui/field";
import { Alert, Badge } from "@/components/ui/misc";
import { ActivateAdsButton } from "./activate-ads";
import { adSetNoun, tool, type AdSet } from "./ads-api";
import { callToActionWords } from "@/components/dashboard/plain-words";

type Copy = ToolOutput<"list_copy_variants">["copies"][number];
type Build = ToolOutput<"build_ads_from_library">;
type CallToAction = ToolInput<"build_ads_from_library">["callToAction"];
type Pairing = NonNullable<ToolInput<"build_ads_from_library">["pairing"]>;

/** How many ads a build makes: the same rule as the tool's pairing (lib/ads/build-from-library.ts pairsFor). */
function pairCount(picked: string[], chosen: { id: string; creativeId: string }[], pairing: Pairing): number {
  if (pairing === "all") return picked.length * Math.max(1, chosen.length);
  return picked.reduce((n, id) => n + Math.max(1, chosen.filter((c) => c.creativeId === id).length), 0);
}

const CTAS: Record<string, CallToAction[]> = {
  platform_a: ["learn_more", "shop_now", "sign_up", "download", "contact_us", "book_now", "get_offer", "subscribe"],
  platform_b: ["learn_more", "shop_now", "sign_up", "download", "contact_us", "apply_now", "subscribe"],
};

const toggle = (list: string[], id: string) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);

/**
 * Pick creatives and copy variants (a picked creative's own variants are chosen until unticked), choose how they
 * pair (each creative with its own copy, or every copy with every creative), preview each pair with its platform
 * checks and the count, create the ads paused, then activate.
 */
export function LaunchFromLibrary({ adSet, canLaunch, onBuilt }: { adSet: AdSet; canLaunch: boolean; onBuilt: () => void | Promise<unknown> }) {
  const creatives = useQuery({ queryKey: ["creatives-for-ads"], queryFn: () => tool("list_creatives", { limit: 200 }) });
  const [picked, setPicked] = useState<string[]>([]);
  // Variants the marketer unticked; every other variant of a picked creative is chosen.
  const [unticked, setUnticked] = useState<string[]>([]);
  const [pairing, setPairing] = useState<Pairing>("own");
  const [cta, setCta] = useState<CallToAction>("learn_more");
  const [url, setUrl] = useState("https://example.com");
  const [preview, setPreview] = useState<Build | null>(null);
  const [built, setBuilt] = useState<Build | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const copyOptions = useQuery({
    queryKey: ["copies-for-ads", picked],
    queryFn: async () => {
      const all: (Copy & { creativeId: string; fileName: string })[] = [];
      for (const id of picked) {
        const c = creatives.data?.creatives.find((x) => x.id === id);
        const { copies } = await tool("list_copy_variants", { creativeId: id, limit: 200 });
        all.push(...copies.map((copy) => ({ ...copy, creativeId: id, fileName: c?.fileName ?? id })));
      }
      return all;
    },
    enabled: picked.length > 0,
  });
  const ready = (creatives.data?.creatives ?? []).filter((c) => c.status === "ready");
  const chosen = (copyOptions.data ?? []).filter((c) => picked.includes(c.creativeId) && !unticked.includes(c.id));
  const copies = chosen.map((c) => c.id);
  const args = { adSetId: adSet.id, creativeIds: picked, copyVariantIds: copies, pairing, callToAction: cta, landingUrl: url };
  const pairs = pairCount(picked, chosen, pairing);

  const run = async (dryRun: boolean) => {
    setBusy(true);
    try {
      const result = await tool("build_ads_from_library", { ...args, dryRun });
      setError(null);
      if (dryRun) setPreview(result);
      else {
        setBuilt(result);
        setPreview(null);
        await onBuilt();
      }
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "Could not build the ads.");
    } finally {
      setBusy(false);
    }
  };
  const nameOf = (id: string) => ready.find((c) => c.id === id)?.fileName ?? id;
  const copyName = (id: string | null) => {
    if (!id) return "no copy";
    const c = copyOptions.data?.find((x) => x.id === id);
    return c ? (c.label ?? c.headline ?? id) : id;
  };
  const builtIds = (built?.ads ?? []).map((r) => r.adId).filter((x): x is string => Boolean(x));

  return (
    <div className="space-y-4" data-testid="launch-from-library">
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Creatives</legend>
        {ready.length === 0 && <p className="text-sm text-slate-600">No ready creatives in the library yet; upload some first.</p>}
        <ul className="mt-2 grid gap-2 sm:grid-cols-2">
          {ready.map((c) => (
            <li key={c.id}>
              <label className="flex items-center gap-2 rounded border border-slate-200 bg-white px-3 py-2 text-sm">
                <input type="checkbox" checked={picked.includes(c.id)} onChange={() => (setPicked(toggle(picked, c.id)), setPreview(null))} />
                {c.thumbnails && (
                  <span className="size-10 shrink-0 overflow-hidden rounded bg-slate-100">
                    <CreativeThumbnail thumbnails={c.thumbnails} alt="" sizes="40px" className="size-full object-cover" />
                  </span>
                )}
                <span className="truncate">{c.fileName}</span>
                <span className="ml-auto shrink-0 text-xs text-slate-600">{c.width && c.height ? `${c.width}×${c.height}` : c.kind}</span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      {picked.length > 0 && (
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Copy variants</legend>
          {copyOptions.data?.length === 0 && (
            <p className="text-sm text-slate-600">The picked creatives have no copy yet: one ad per creative, without copy.</p>
          )}
          <ul className="mt-2 grid gap-2 sm:grid-cols-2">
            {copyOptions.data?.map((c) => (
              <li key={c.id}>
                <label className="flex items-center gap-2 rounded border border-slate-200 bg-white px-3 py-2 text-sm">
                  <input type="checkbox" checked={copies.includes(c.id)} onChange={() => (setUnticked(toggle(unticked, c.id)), setPreview(null))} />
                  <span className="truncate">{c.label ?? c.headline ?? "(untitled)"}</span>
                  <span className="ml-auto shrink-0 truncate text-xs text-slate-600">{c.fileName}</span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      )}
      {picked.length > 0 && (copyOptions.data?.length ?? 0) > 0 && (
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Pairing</legend>
          <div className="mt-1 space-y-1 text-sm">
            {(
              [
                ["own", "Each creative with its own copy", "a creative without chosen copy gets one ad without copy"],
                ["all", "Every copy with every creative", "all-by-all: copy written for one creative runs on the others too"],
              ] as const
            ).map(([value, label, hint]) => (
              <label key={value} className="flex items-start gap-2">
                <input
                  type="radio"
                  name={`pairing-${adSet.id}`}
                  value={value}
                  className="mt-1"
                  checked={pairing === value}
                  onChange={() => (setPairing(value), setPreview(null))}
                />
                <span>
                  {label} <span className="text-xs text-slate-600">({hint})</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1">
          <label htmlFor={`cta-${adSet.id}`} className="block text-sm font-medium text-slate-800">
            Call to action
          </label>
          <Select id={`cta-${adSet.id}`} value={cta} onChange={(e) => (setCta(e.target.value as CallToAction), setPreview(null))}>
            {CTAS[adSet.platform]!.map((c) => (
              <option key={c} value={c}>
                {callToActionWords(c)}
              </option>
            ))}
          </Select>
        </div>
        <Field id={`url-${adSet.id}`} label="Landing URL" type="url" value={url} onChange={(e) => (setUrl(e.target.value), setPreview(null))} required />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="secondary" disabled={busy || picked.length === 0} onClick={() => run(true)}>
          Preview {pairs} ad{pairs === 1 ? "" : "s"}
        </Button>
        {preview && (
          <Button size="sm" disabled={busy || preview.ads.some((r) => r.problems.length > 0 && !r.adId)} onClick={() => run(false)}>
            Create {preview.ads.filter((r) => !r.adId).length} paused ads
          </Button>
        )}
      </div>
      {error && <Alert>{error}</Alert>}
      {preview && (
        <p className="text-sm text-slate-800" data-testid="build-count">
          {preview.pairs} ad{preview.pairs === 1 ? "" : "s"} to build:{" "}
          {preview.pairing === "own" ? "each creative with its own copy" : "every copy with every creative"}. Nothing is created until you confirm.
        </p>
      )}
      {preview && (
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Ads to build">
          <table className="w-full min-w-[28rem] text-left text-sm" aria-label="Ads to build">
            <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Creative
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Copy
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Platform checks
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {preview.ads.map((r) => (
                <tr key={`${r.creativeId}|${r.copyVariantId}`} data-testid="matrix-row">
                  <td className="max-w-[12rem] truncate px-3 py-2">{nameOf(r.creativeId)}</td>
                  <td className="max-w-[10rem] truncate px-3 py-2">{copyName(r.copyVariantId)}</td>
                  <td className="px-3 py-2">
                    {r.adId ? (
                      <Badge tone="sky">already built</Badge>
                    ) : r.problems.length === 0 ? (
                      <Badge tone="green">passes {adSetNoun(adSet.platform) === "ad set" ? "Platform A" : "Platform B"} checks</Badge>
                    ) : (
                      <ul className="list-disc pl-4 text-rose-800">
                        {r.problems.map((p) => (
                          <li key={p}>{p}</li>
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {built && (
        <Alert tone={built.failed ? "amber" : "green"}>
          <span data-testid="build-result">
            Created {built.created} paused ad{built.created === 1 ? "" : "s"}
            {built.existing ? `, ${built.existing} already existed` : ""}
            {built.failed ? `, ${built.failed} refused by the platform` : ""}
            {built.pending ? `, ${built.pending} waiting for a large video to reach the ad account (built in the background)` : ""}.
          </span>
        </Alert>
      )}
      {built && canLaunch && builtIds.length > 0 && <ActivateAdsButton adIds={builtIds} onDone={async () => (setBuilt(null), await onBuilt())} />}
    </div>
  );
}
