"use client";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert, Badge } from "@/components/ui/misc";
import type { ConsentWorkspace } from "@/lib/dashboard/account";

interface Props {
  /** The authorization request's parameters, posted back unchanged (the server checks them again). */
  hidden: Record<string, string>;
  workspaces: ConsentWorkspace[];
  preferredWorkspaceId: string;
  scopeDescriptions: Record<string, string>;
}

export function ConsentForm({ hidden, workspaces, preferredWorkspaceId, scopeDescriptions }: Props) {
  const initial = workspaces.find((w) => w.id === preferredWorkspaceId) ?? workspaces[0];
  const [workspaceId, setWorkspaceId] = useState(initial?.id ?? "");
  const [chosen, setChosen] = useState<string[]>(initial?.defaultScopes ?? []);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const workspace = workspaces.find((w) => w.id === workspaceId);

  const pickWorkspace = (id: string) => {
    setWorkspaceId(id);
    setChosen(workspaces.find((w) => w.id === id)?.defaultScopes ?? []);
  };

  // The page's CSP allows forms to post only to this site; the answer names where to go next.
  const submit = async (decision: "allow" | "deny") => {
    setBusy(true);
    setError(null);
    const body = new URLSearchParams({ ...hidden, decision, workspace_id: workspaceId });
    for (const s of chosen) body.append("scopes", s);
    try {
      const res = await fetch("/api/oauth/consent", { method: "POST", headers: { Accept: "application/json" }, body });
      const answer = (await res.json()) as { redirectTo?: string; error_description?: string };
      if (answer.redirectTo) return window.location.assign(answer.redirectTo);
      setError(answer.error_description ?? "The request could not be completed");
    } catch {
      setError("Network error: try again");
    }
    setBusy(false);
  };

  if (!workspace) return <Alert>You are not a member of any active workspace, so there is nothing to connect.</Alert>;
  return (
    // Without script the form posts itself (303); with script, submit() posts and navigates (see the route).
    <form
      method="post"
      action="/api/oauth/consent"
      className="space-y-6"
      aria-describedby={error ? "consent-error" : undefined}
      onSubmit={(e) => {
        e.preventDefault();
        const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
        void submit(submitter?.value === "deny" ? "deny" : "allow");
      }}
    >
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {error && (
        <div id="consent-error">
          <Alert>{error}</Alert>
        </div>
      )}
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Workspace</legend>
        <div className="mt-2 space-y-2">
          {workspaces.map((w) => (
            <label key={w.id} className="flex items-center gap-2 rounded-md border border-slate-200 p-2 text-sm hover:bg-slate-50">
              <input
                type="radio"
                name="workspace_id"
                value={w.id}
                checked={w.id === workspaceId}
                onChange={() => pickWorkspace(w.id)}
                className="accent-indigo-600"
              />
              <span className="min-w-0 flex-1 break-words font-medium text-slate-900">{w.name}</span>
              <Badge>{w.role}</Badge>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">What it may do</legend>
        <p className="mt-1 text-xs text-slate-600">
          Reading the library, tasks and your account is always included. Each scope adds actions; you cannot grant more than your role ({workspace.role})
          allows.
        </p>
        <div className="mt-3 grid gap-2 sm:grid-cols-2">
          {workspace.grantableScopes.map((s) => (
            <label key={s} className="flex items-start gap-2 rounded-md border border-slate-200 p-2 text-sm hover:bg-slate-50">
              <input
                type="checkbox"
                name="scopes"
                value={s}
                className="mt-0.5 accent-indigo-600"
                checked={chosen.includes(s)}
                onChange={(e) => setChosen((c) => (e.target.checked ? [...c, s] : c.filter((x) => x !== s)))}
              />
              <span>
                <span className="font-mono text-xs font-semibold">{s}</span>
                <span className="block text-xs text-slate-600">{scopeDescriptions[s]}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" name="decision" value="allow" disabled={busy}>
          {busy ? "Connecting…" : "Allow"}
        </Button>
        <Button type="submit" name="decision" value="deny" variant="ghost" disabled={busy}>
          Deny
        </Button>
      </div>
    </form>
  );
}
