"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { callTool, type ToolOutput } from "@/components/dashboard/tool-call";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/field";

type TaskLink = ToolOutput<"get_task">["task"]["links"][number];

/** What a task can link to: the library's newest creatives and the workspace's newest ads, by name. */
export function useLinkTargets() {
  const creatives = useQuery({ queryKey: ["task-link-creatives"], queryFn: () => callTool("list_creatives", { limit: 200 }), staleTime: 30_000 });
  const ads = useQuery({ queryKey: ["task-link-ads"], queryFn: () => callTool("list_ads", { limit: 200 }), staleTime: 30_000, retry: false });
  const names = new Map<string, string>();
  for (const c of creatives.data?.creatives ?? []) names.set(`creative:${c.id}`, c.fileName);
  for (const a of ads.data?.ads ?? []) names.set(`ad:${a.id}`, a.name);
  return {
    creatives: (creatives.data?.creatives ?? []).map((c) => ({ value: `creative:${c.id}`, label: c.fileName })),
    ads: (ads.data?.ads ?? []).map((a) => ({ value: `ad:${a.id}`, label: a.name })),
    nameOf: (link: TaskLink) => names.get(`${link.kind}:${link.id}`) ?? link.id,
  };
}

/** "creative:cre_1" -> { kind, id }; "" -> null. */
export function parseLinkValue(value: string): TaskLink | null {
  const i = value.indexOf(":");
  if (i < 1) return null;
  return { kind: value.slice(0, i) as TaskLink["kind"], id: value.slice(i + 1) };
}

/** A select of creatives and ads, grouped; the empty option means "no link". */
export function LinkSelect({
  id,
  name,
  value,
  onChange,
  emptyLabel,
}: {
  id: string;
  name?: string;
  value?: string;
  onChange?: (v: string) => void;
  emptyLabel: string;
}) {
  const targets = useLinkTargets();
  return (
    <Select
      id={id}
      name={name}
      value={value}
      onChange={onChange ? (e) => onChange(e.target.value) : undefined}
      defaultValue={value === undefined ? "" : undefined}
    >
      <option value="">{emptyLabel}</option>
      {targets.creatives.length > 0 && (
        <optgroup label="Creatives">
          {targets.creatives.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </optgroup>
      )}
      {targets.ads.length > 0 && (
        <optgroup label="Ads">
          {targets.ads.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </optgroup>
      )}
    </Select>
  );
}

/** The task's links, each opening its creative or the Ads page; add and remove for those who may change tasks. */
export function TaskLinksEditor({
  links,
  canWrite,
  busy,
  onChange,
}: {
  links: TaskLink[];
  canWrite: boolean;
  busy: boolean;
  onChange: (links: TaskLink[]) => void;
}) {
  const targets = useLinkTargets();
  const [adding, setAdding] = useState("");
  const add = () => {
    const link = parseLinkValue(adding);
    if (!link || links.some((l) => l.kind === link.kind && l.id === link.id)) return;
    onChange([...links, link]);
    setAdding("");
  };
  return (
    <section aria-labelledby="task-links-heading" className="space-y-2">
      <h3 id="task-links-heading" className="text-sm font-semibold text-slate-900">
        Linked to
      </h3>
      {links.length === 0 ? (
        <p className="text-sm text-slate-500">No creative or ad linked.</p>
      ) : (
        <ul className="space-y-1" aria-label="Task links">
          {links.map((l) => (
            <li key={`${l.kind}:${l.id}`} data-testid="task-link" className="flex flex-wrap items-center gap-2 text-sm">
              <span className="text-xs uppercase text-slate-500">{l.kind === "ad" ? "Ad" : "Creative"}</span>
              <Link
                className="break-all text-indigo-700 underline"
                href={l.kind === "ad" ? "/dashboard/ads" : `/dashboard/library/${encodeURIComponent(l.id)}`}
              >
                {targets.nameOf(l)}
              </Link>
              {canWrite && (
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={busy}
                  aria-label={`Remove link to ${targets.nameOf(l)}`}
                  onClick={() => onChange(links.filter((x) => !(x.kind === l.kind && x.id === l.id)))}
                >
                  Remove
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canWrite && (
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor="task-add-link" className="sr-only">
            Creative or ad to link
          </label>
          <div className="w-full sm:w-72">
            <LinkSelect id="task-add-link" value={adding} onChange={setAdding} emptyLabel="Choose a creative or ad…" />
          </div>
          <Button size="sm" variant="secondary" disabled={busy || !adding} onClick={add}>
            Add link
          </Button>
        </div>
      )}
    </section>
  );
}
