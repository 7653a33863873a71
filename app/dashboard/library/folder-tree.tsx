"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { inputClass } from "@/components/ui/field";
import type { LibraryFolder } from "@/lib/session/library-view";
import { createFolderAction } from "./actions";

/** The folder tree; "All creatives" clears the filter. New folders go inside the selected one. */
export function FolderTree({ folders, selected, onSelect, canCreate }: { folders: LibraryFolder[]; selected: string | null; onSelect: (id: string | null) => void; canCreate: boolean }) {
  const children = (parentId: string | null) => folders.filter((f) => f.parentId === parentId);
  const item = (id: string | null, name: string, depth: number) => (
    <button
      type="button"
      onClick={() => onSelect(id)}
      aria-current={selected === id ? "true" : undefined}
      style={{ paddingLeft: `${0.75 + depth * 0.9}rem` }}
      className={`block w-full truncate rounded-md py-1.5 pr-2 text-left text-sm focus-visible:outline-2 focus-visible:outline-indigo-600 ${
        selected === id ? "bg-indigo-50 font-medium text-indigo-800" : "text-slate-700 hover:bg-slate-100"
      }`}
    >
      {name}
    </button>
  );
  const branch = (parentId: string | null, depth: number): React.ReactNode => {
    const list = children(parentId);
    if (!list.length) return null;
    return (
      <ul role="group">
        {list.map((f) => (
          <li key={f.id}>
            {item(f.id, f.name, depth)}
            {branch(f.id, depth + 1)}
          </li>
        ))}
      </ul>
    );
  };
  return (
    <div>
      <p className="px-3 pb-1 text-xs font-medium uppercase tracking-wide text-slate-500">Folders</p>
      {item(null, "All creatives", 0)}
      {branch(null, 0)}
      {canCreate && <NewFolder parentId={selected} parentName={folders.find((f) => f.id === selected)?.name ?? null} />}
    </div>
  );
}

function NewFolder({ parentId, parentName }: { parentId: string | null; parentName: string | null }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <form
      className="mt-4 space-y-1 px-1"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const result = await createFolderAction({ name, parentId });
          if (!result.ok) return setError(result.error);
          setError(null);
          setName("");
          router.refresh();
        });
      }}
    >
      <label htmlFor="new-folder" className="block text-xs font-medium text-slate-600">
        New folder{parentName ? ` in ${parentName}` : ""}
      </label>
      <div className="flex gap-1">
        <input id="new-folder" className={`${inputClass} py-1`} value={name} maxLength={200} onChange={(e) => setName(e.target.value)} placeholder="Folder name" />
        <button type="submit" disabled={pending || !name.trim()} className="rounded-md px-2 text-sm font-medium text-indigo-700 hover:bg-indigo-50 disabled:text-slate-400">
          Add
        </button>
      </div>
      {error && <p role="alert" className="text-xs text-rose-700">{error}</p>}
    </form>
  );
}
