"use client";
import { useState } from "react";
import { ApiError, apiFetch } from "@/components/dashboard/api";
import { useUnsavedWarning } from "@/components/dashboard/use-unsaved-warning";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { inputClass } from "@/components/ui/field";
import { Alert, Card, EmptyState } from "@/components/ui/misc";
import type { Copy } from "@/lib/copy/copy-schema";

type Limits = { headline: number; primaryText: number; description: number; label: number };
type Fields = { headline: string; primaryText: string; description: string; label: string };
const FIELDS: { key: keyof Fields; label: string; rows: number }[] = [
  { key: "label", label: "Label", rows: 1 },
  { key: "headline", label: "Headline", rows: 2 },
  { key: "primaryText", label: "Primary text", rows: 5 },
  { key: "description", label: "Description", rows: 2 },
];
const chars = (s: string) => [...s].length; // code points, as the API counts them

const toFields = (c?: Copy): Fields => ({
  headline: c?.headline ?? "",
  primaryText: c?.primaryText ?? "",
  description: c?.description ?? "",
  label: c?.label ?? "",
});
/** Empty fields are sent as null so a variant can hold just a headline. */
const toBody = (f: Fields) => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v.trim() ? v : null]));

export function CopyEditor({
  creativeId,
  initialCopies,
  limits,
  canEdit,
  canDelete,
}: {
  creativeId: string;
  initialCopies: Copy[];
  limits: Limits;
  canEdit: boolean;
  canDelete: boolean;
}) {
  const [copies, setCopies] = useState<{ key: string; id: string | null; fields: Fields; saved: Fields }[]>(
    initialCopies.map((c) => ({ key: c.id, id: c.id, fields: toFields(c), saved: toFields(c) })),
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const base = `/api/v1/creatives/${encodeURIComponent(creativeId)}/copy`;
  const isDirty = (c: (typeof copies)[number]) => (!c.id ? FIELDS.some((f) => c.fields[f.key].trim()) : JSON.stringify(c.fields) !== JSON.stringify(c.saved));
  useUnsavedWarning(canEdit && copies.some(isDirty));

  const update = (key: string, field: keyof Fields, value: string) =>
    setCopies((list) => list.map((c) => (c.key === key ? { ...c, fields: { ...c.fields, [field]: value } } : c)));

  const save = async (key: string) => {
    const copy = copies.find((c) => c.key === key)!;
    setBusy(key);
    try {
      const { id } = await apiFetch<{ id: string }>(base, { method: "POST", json: { ...(copy.id ? { id: copy.id } : {}), ...toBody(copy.fields) } });
      setCopies((list) => list.map((c) => (c.key === key ? { ...c, id, saved: c.fields } : c)));
      setError(null);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "Saving failed. Please try again.");
    } finally {
      setBusy(null);
    }
  };
  const remove = async (key: string) => {
    const copy = copies.find((c) => c.key === key)!;
    if (copy.id) {
      setBusy(key);
      try {
        await apiFetch(base, { method: "DELETE", json: { id: copy.id } });
        setError(null);
      } catch (e) {
        setBusy(null);
        return setError(e instanceof ApiError ? e.message : "Deleting failed. Please try again.");
      }
      setBusy(null);
    }
    setCopies((list) => list.filter((c) => c.key !== key));
  };

  return (
    <section aria-labelledby="copy-heading" className="space-y-4">
      <div className="flex items-center justify-between">
        <h2 id="copy-heading" className="text-lg font-semibold text-slate-900">
          Copy variants
        </h2>
        <Button
          size="sm"
          disabled={!canEdit}
          aria-describedby={canEdit ? undefined : "copy-reason"}
          onClick={() => setCopies((list) => [{ key: `new-${Date.now()}`, id: null, fields: toFields(), saved: toFields() }, ...list])}
        >
          Add variant
        </Button>
      </div>
      {!canEdit && (
        <p id="copy-reason" data-testid="copy-disabled-reason" className="text-sm text-slate-700">
          Your role can read this copy but not change it (needs &quot;library.write&quot;: editors and above).
        </p>
      )}
      {error && <Alert>{error}</Alert>}
      {copies.length === 0 && (
        <EmptyState title="No copy yet">Write headlines and ad texts for this creative; each variant can hold as little as a headline.</EmptyState>
      )}
      {copies.map((copy, index) => {
        const dirty = JSON.stringify(copy.fields) !== JSON.stringify(copy.saved) || !copy.id;
        const over = FIELDS.some((f) => chars(copy.fields[f.key]) > limits[f.key]);
        return (
          <Card key={copy.key} className="p-4">
            <form
              data-testid="copy-variant"
              onSubmit={(e) => {
                e.preventDefault();
                void save(copy.key);
              }}
              className="space-y-3"
            >
              {FIELDS.map((f) => {
                const id = `${copy.key}-${f.key}`;
                const count = chars(copy.fields[f.key]);
                const tooLong = count > limits[f.key];
                return (
                  <div key={f.key} className="space-y-1">
                    <div className="flex items-baseline justify-between">
                      <label htmlFor={id} className="text-sm font-medium text-slate-800">
                        {f.label}
                      </label>
                      <span
                        id={`${id}-count`}
                        className={`text-xs tabular-nums ${tooLong ? "font-semibold text-rose-700" : "text-slate-500"}`}
                        aria-live={tooLong ? "polite" : "off"}
                      >
                        {count.toLocaleString("en-US")} / {limits[f.key].toLocaleString("en-US")}
                      </span>
                    </div>
                    {f.rows === 1 ? (
                      <input
                        id={id}
                        className={inputClass}
                        value={copy.fields[f.key]}
                        onChange={(e) => update(copy.key, f.key, e.target.value)}
                        aria-invalid={tooLong || undefined}
                        aria-describedby={`${id}-count`}
                        readOnly={!canEdit}
                      />
                    ) : (
                      <textarea
                        id={id}
                        rows={f.rows}
                        className={inputClass}
                        value={copy.fields[f.key]}
                        onChange={(e) => update(copy.key, f.key, e.target.value)}
                        aria-invalid={tooLong || undefined}
                        aria-describedby={`${id}-count`}
                        readOnly={!canEdit}
                      />
                    )}
                  </div>
                );
              })}
              {canEdit ? (
                <div className="flex items-center gap-2">
                  <Button type="submit" size="sm" disabled={!dirty || over || busy === copy.key}>
                    {busy === copy.key ? "Saving…" : copy.id ? "Save changes" : `Save variant${index === 0 ? "" : ""}`}
                  </Button>
                  {!dirty && <span className="text-xs text-emerald-700">Saved</span>}
                  {over && <span className="text-xs text-rose-700">Shorten the highlighted text to save.</span>}
                  {(canDelete || !copy.id) && (
                    <Button
                      size="sm"
                      variant="danger-ghost"
                      className="ml-auto"
                      disabled={busy === copy.key}
                      onClick={() => (copy.id ? setDeleting(copy.key) : void remove(copy.key))}
                    >
                      {copy.id ? "Delete" : "Discard"}
                    </Button>
                  )}
                </div>
              ) : (
                <div className="flex items-center gap-2">
                  <Button type="submit" size="sm" disabled aria-describedby="copy-reason">
                    Save changes
                  </Button>
                  <Button size="sm" variant="danger-ghost" className="ml-auto" disabled aria-describedby="copy-reason">
                    Delete
                  </Button>
                </div>
              )}
            </form>
          </Card>
        );
      })}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this copy variant?"
        confirmLabel="Delete variant"
        busy={deleting !== null && busy === deleting}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const key = deleting!;
          void remove(key).then(() => setDeleting(null));
        }}
      >
        {(() => {
          const c = copies.find((x) => x.key === deleting);
          return c ? <>“{c.saved.headline || c.saved.label || "Untitled variant"}” is removed from this creative. This cannot be undone.</> : null;
        })()}
      </ConfirmDialog>
    </section>
  );
}
