"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { inputClass } from "@/components/ui/field";
import type { LibraryFolder } from "@/lib/read-models/library";
import { createFolderAction } from "./actions";
import { deleteFolderAction, renameFolderAction } from "./library-actions";

const DRAG_TYPE = "application/x-adloom-creatives";

/**
 * The folder tree: "All creatives" clears the filter, "Library root" shows unfiled creatives.
 * Each entry is a drop target for dragged tiles; the chosen folder can be renamed or deleted,
 * and new folders go inside it.
 */
export function FolderPanel({
  folders,
  selected,
  onSelect,
  canWrite,
  canDelete,
  onDropCreatives,
  onChanged,
  onError,
}: {
  folders: LibraryFolder[];
  /** undefined: all creatives; null: the library root; else a folder id. */
  selected: string | null | undefined;
  onSelect: (id: string | null | undefined) => void;
  canWrite: boolean;
  canDelete: boolean;
  onDropCreatives?: (ids: string[], folderId: string | null) => void;
  onChanged: (message: string) => void;
  onError: (message: string) => void;
}) {
  const router = useRouter();
  const [dropOver, setDropOver] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [pending, start] = useTransition();
  const current = folders.find((f) => f.id === selected) ?? null;
  const children = (parentId: string | null) => folders.filter((f) => f.parentId === parentId);

  const item = (id: string | null | undefined, name: string, depth: number, testId?: string): ReactNode => {
    const key = id === undefined ? "all" : (id ?? "root");
    const droppable = onDropCreatives && id !== undefined;
    return (
      <button
        type="button"
        data-testid={testId}
        data-folder-id={id ?? undefined}
        onClick={() => onSelect(id)}
        aria-current={selected === id ? "true" : undefined}
        style={{ paddingLeft: `${0.75 + depth * 0.9}rem` }}
        onDragOver={
          droppable
            ? (e) => {
                if (!e.dataTransfer.types.includes(DRAG_TYPE)) return;
                e.preventDefault();
                e.dataTransfer.dropEffect = "move";
                setDropOver(key);
              }
            : undefined
        }
        onDragLeave={droppable ? () => setDropOver(null) : undefined}
        onDrop={
          droppable
            ? (e) => {
                e.preventDefault();
                setDropOver(null);
                const raw = e.dataTransfer.getData(DRAG_TYPE);
                if (raw) onDropCreatives!(JSON.parse(raw) as string[], id ?? null);
              }
            : undefined
        }
        className={`block w-full truncate rounded-md py-1.5 pr-2 text-left text-sm ${dropOver === key ? "bg-indigo-100 ring-2 ring-indigo-500" : ""} ${
          selected === id ? "bg-indigo-50 font-medium text-indigo-800" : "text-slate-700 hover:bg-slate-100"
        }`}
      >
        {name}
      </button>
    );
  };
  const branch = (parentId: string | null, depth: number): ReactNode => {
    const list = children(parentId);
    if (!list.length) return null;
    return (
      <ul>
        {list.map((f) => (
          <li key={f.id}>
            {renaming === f.id ? (
              <RenameForm
                folder={f}
                onDone={(message) => {
                  setRenaming(null);
                  if (message) {
                    onChanged(message);
                    router.refresh();
                  }
                }}
                onError={onError}
              />
            ) : (
              item(f.id, f.name, depth, "folder-item")
            )}
            {branch(f.id, depth + 1)}
          </li>
        ))}
      </ul>
    );
  };
  return (
    <div>
      <p className="px-3 pb-1 text-xs font-medium uppercase tracking-wide text-slate-600">Folders</p>
      {item(undefined, "All creatives", 0)}
      {item(null, "Library root", 0)}
      {branch(null, 0)}
      {current && (canWrite || canDelete) && (
        <div className="mt-2 flex flex-wrap gap-1 px-1">
          {canWrite && (
            <Button size="sm" variant="ghost" onClick={() => setRenaming(current.id)}>
              Rename “{current.name}”
            </Button>
          )}
          {canDelete && (
            <Button size="sm" variant="danger-ghost" onClick={() => setDeleting(true)}>
              Delete folder
            </Button>
          )}
        </div>
      )}
      {canWrite && <NewFolder parentId={current?.id ?? null} parentName={current?.name ?? null} />}
      <ConfirmDialog
        open={deleting && current !== null}
        title={`Delete the folder “${current?.name ?? ""}”?`}
        confirmLabel="Delete folder"
        busy={pending}
        onCancel={() => setDeleting(false)}
        onConfirm={() =>
          start(async () => {
            const result = await deleteFolderAction(current!.id);
            setDeleting(false);
            if (!result.ok) return onError(result.error);
            onSelect(undefined);
            onChanged(`Deleted the folder ${current!.name}.`);
            router.refresh();
          })
        }
      >
        Only an empty folder can be deleted (its empty subfolders go with it). Move its creatives elsewhere first.
      </ConfirmDialog>
    </div>
  );
}

function RenameForm({ folder, onDone, onError }: { folder: LibraryFolder; onDone: (message: string | null) => void; onError: (message: string) => void }) {
  const [name, setName] = useState(folder.name);
  const [pending, start] = useTransition();
  return (
    <form
      className="flex gap-1 px-1 py-0.5"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const result = await renameFolderAction(folder.id, name);
          if (!result.ok) return onError(result.error);
          onDone(`Renamed the folder to ${result.data.folder.name}.`);
        });
      }}
    >
      <label htmlFor={`rename-${folder.id}`} className="sr-only">
        New name for {folder.name}
      </label>
      {/* biome-ignore lint/a11y/noAutofocus: the rename field opens when asked for and takes the focus */}
      <input id={`rename-${folder.id}`} className={`${inputClass} py-1`} value={name} maxLength={200} autoFocus onChange={(e) => setName(e.target.value)} />
      <Button type="submit" size="sm" variant="ghost" disabled={pending || !name.trim()}>
        Save
      </Button>
      <Button size="sm" variant="ghost" onClick={() => onDone(null)}>
        Cancel
      </Button>
    </form>
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
        <input
          id="new-folder"
          className={`${inputClass} py-1`}
          value={name}
          maxLength={200}
          onChange={(e) => setName(e.target.value)}
          placeholder="Folder name"
        />
        <button
          type="submit"
          disabled={pending || !name.trim()}
          className="rounded-md px-2 text-sm font-medium text-indigo-700 hover:bg-indigo-50 disabled:text-slate-500"
        >
          Add
        </button>
      </div>
      {error && (
        <p role="alert" className="text-xs text-rose-700">
          {error}
        </p>
      )}
    </form>
  );
}
