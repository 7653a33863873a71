"use client";
import Link from "next/link";
import { useTransition } from "react";
import type { WorkspaceSummary } from "@/lib/workspaces/switcher";

/** Switches the active workspace (the one pages show and new API keys bind to). */
export function WorkspaceSwitcher({
  workspaces,
  activeId,
  switchAction,
}: {
  workspaces: WorkspaceSummary[];
  activeId: string;
  switchAction: (workspaceId: string) => Promise<void>;
}) {
  const [pending, startTransition] = useTransition();
  const active = workspaces.find((w) => w.id === activeId);
  if (workspaces.length < 2) {
    return (
      <div className="px-3 py-2">
        <p className="text-xs font-medium uppercase tracking-wide text-slate-500">Workspace</p>
        <p className="truncate text-sm font-semibold text-slate-900" title={active?.name}>
          {active?.name}
        </p>
        <NewWorkspaceLink />
      </div>
    );
  }
  return (
    <div className="px-3 py-2">
      <label htmlFor="workspace-switcher" className="text-xs font-medium uppercase tracking-wide text-slate-500">
        Workspace
      </label>
      <select
        id="workspace-switcher"
        className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm font-semibold text-slate-900 focus:outline-2 focus:outline-indigo-600"
        value={activeId}
        disabled={pending}
        onChange={(e) => startTransition(() => switchAction(e.target.value))}
      >
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name} ({w.role})
          </option>
        ))}
      </select>
      <NewWorkspaceLink />
    </div>
  );
}

function NewWorkspaceLink() {
  return (
    <Link
      href="/dashboard/settings/profile#new-workspace"
      className="mt-1 inline-block rounded text-xs font-medium text-indigo-700 underline-offset-2 hover:underline"
    >
      + New workspace
    </Link>
  );
}
