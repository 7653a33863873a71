"use client";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { Alert, Badge, Card, EmptyState, Section, TableHead } from "@/components/ui/misc";
import { ScopeBadges } from "./scope-badges";
import type { ApiKeySummary } from "@/lib/dashboard/account";
import { formatDate, formatRelative } from "@/components/dashboard/format";
import { useMemberClock } from "@/components/dashboard/time-zone";
import { createKeyAction, revokeKeyAction } from "./actions";

interface ScopeOption {
  id: string;
  description: string;
  grantable: boolean;
}

export function ApiKeysManager({
  keys,
  canCreate,
  scopes,
  currentUserId,
}: {
  keys: ApiKeySummary[];
  canCreate: boolean;
  scopes: ScopeOption[];
  currentUserId: string;
}) {
  const clock = useMemberClock();
  const [pending, start] = useTransition();
  const [name, setName] = useState("");
  const [restricted, setRestricted] = useState(false);
  const [chosen, setChosen] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ key: string; name: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKeySummary | null>(null);

  const create = (e: React.FormEvent) => {
    e.preventDefault();
    if (restricted && chosen.length === 0) return setError("Choose at least one scope, or give the key full access.");
    start(async () => {
      const result = await createKeyAction({ name: name.trim() || "API key", scopes: restricted ? chosen : null });
      if (!result.ok) return setError(result.error);
      setError(null);
      setCreated({ key: result.data.key, name: name.trim() || "API key" });
      setName("");
      setChosen([]);
      setRestricted(false);
    });
  };

  const revoke = () =>
    start(async () => {
      const result = await revokeKeyAction(revoking!.id);
      setError(result.ok ? null : result.error);
      setRevoking(null);
    });

  return (
    <div className="space-y-8">
      {created && (
        <Card className="border-emerald-300 bg-emerald-50 p-5">
          <h2 className="font-semibold text-emerald-900">Your new key “{created.name}”</h2>
          <p className="mt-1 text-sm text-emerald-900">Copy it now: this is the only time it is shown. Store it in a secret manager.</p>
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <code
              data-testid="new-api-key"
              className="min-w-0 flex-1 break-all rounded-md border border-emerald-200 bg-white px-3 py-2 font-mono text-sm text-slate-900"
            >
              {created.key}
            </code>
            <CopyButton value={created.key} label="Copy key" />
            <Button variant="ghost" size="sm" onClick={() => setCreated(null)}>
              Done
            </Button>
          </div>
        </Card>
      )}

      <Card className="p-6">
        <h2 className="text-lg font-semibold text-slate-900">Create a key</h2>
        <form onSubmit={create} className="mt-4 space-y-4" aria-describedby={error ? "key-error" : undefined}>
          {error && (
            <div id="key-error">
              <Alert>{error}</Alert>
            </div>
          )}
          <div className="max-w-md">
            <Field
              id="key-name"
              label="Name"
              placeholder="e.g. Reporting script"
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={100}
              disabled={!canCreate}
            />
          </div>
          <fieldset disabled={!canCreate}>
            <legend className="text-sm font-medium text-slate-800">Access</legend>
            <div className="mt-2 flex flex-wrap gap-4 text-sm">
              <label className="flex items-center gap-2">
                <input type="radio" name="access" checked={!restricted} onChange={() => setRestricted(false)} className="accent-indigo-600" />
                Everything you can do
              </label>
              <label className="flex items-center gap-2">
                <input type="radio" name="access" checked={restricted} onChange={() => setRestricted(true)} className="accent-indigo-600" />
                Only chosen scopes
              </label>
            </div>
            {restricted && (
              <div className="mt-3 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
                {scopes.map((s) => (
                  <label
                    key={s.id}
                    className={`flex items-start gap-2 rounded-md border p-2 text-sm ${s.grantable ? "border-slate-200 hover:bg-slate-50" : "border-slate-100 text-slate-400"}`}
                    title={s.grantable ? undefined : "Your role cannot grant this scope"}
                  >
                    <input
                      type="checkbox"
                      className="mt-0.5 accent-indigo-600"
                      disabled={!s.grantable}
                      checked={chosen.includes(s.id)}
                      onChange={(e) => setChosen((c) => (e.target.checked ? [...c, s.id] : c.filter((x) => x !== s.id)))}
                    />
                    <span>
                      <span className="font-mono text-xs font-semibold">{s.id}</span>
                      <span className="block text-xs text-slate-600">{s.grantable ? s.description : `${s.description} (not available to your role)`}</span>
                    </span>
                  </label>
                ))}
              </div>
            )}
          </fieldset>
          <Button type="submit" disabled={!canCreate || pending}>
            {pending ? "Creating…" : "Create key"}
          </Button>
        </form>
      </Card>

      <Section id="keys" title="Active keys">
        {keys.length === 0 ? (
          <EmptyState title="No API keys yet">Keys you create appear here with when they were last used.</EmptyState>
        ) : (
          <Card className="overflow-x-auto">
            <table className="stack-table w-full text-left text-sm">
              <TableHead columns={["Name", "Key", "Scopes", "Created by", "Created", "Last used"]} actions />
              <tbody className="divide-y divide-slate-100">
                {keys.map((k) => (
                  <tr key={k.id} data-testid="api-key-row">
                    <td data-label="Name" className="px-4 py-3 font-medium text-slate-900">
                      {k.name}
                    </td>
                    <td data-label="Key" className="px-4 py-3 font-mono text-xs text-slate-700">
                      {k.partialKey}
                    </td>
                    <td data-label="Scopes" className="px-4 py-3">
                      <ScopeBadges scopes={k.scopes} whenNone={<Badge tone="indigo">full access</Badge>} />
                    </td>
                    <td data-label="Created by" className="px-4 py-3 text-slate-700">
                      {k.createdBy.id === currentUserId ? "You" : k.createdBy.name}
                    </td>
                    <td data-label="Created" className="whitespace-nowrap px-4 py-3 text-slate-700">
                      {formatDate(k.createdAt, clock)}
                    </td>
                    <td data-label="Last used" className="whitespace-nowrap px-4 py-3 text-slate-700" suppressHydrationWarning>
                      {k.lastUsedAt ? formatRelative(k.lastUsedAt, Date.now(), clock) : "Never"}
                    </td>
                    <td className="px-4 py-3 text-right">
                      <Button variant="danger-ghost" size="sm" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>
                        Revoke
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
        )}
      </Section>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ""}”?`}
        confirmLabel="Revoke key"
        busy={pending}
        onCancel={() => setRevoking(null)}
        onConfirm={revoke}
      >
        Requests with this key start failing with 401 immediately. This cannot be undone.
      </ConfirmDialog>
    </div>
  );
}
