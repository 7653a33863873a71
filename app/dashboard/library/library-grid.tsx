"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState, useTransition } from "react";
import { ApiError, apiFetch } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { inputClass } from "@/components/ui/field";
import { Alert, Badge, EmptyState } from "@/components/ui/misc";
import type { LibraryCreative, LibraryFolder } from "@/lib/session/library-view";
import { FolderTree } from "./folder-tree";

const DELETE_BATCH = 200;
const STATUS_TONE = { ready: "green", importing: "amber", failed: "rose" } as const;

/** Ids of a folder and everything beneath it. */
function subtree(folders: LibraryFolder[], rootId: string): Set<string> {
  const ids = new Set([rootId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const f of folders) if (f.parentId && ids.has(f.parentId) && !ids.has(f.id)) ids.add(f.id), (grew = true);
  }
  return ids;
}

export function LibraryGrid({
  creatives,
  folders,
  initialFolder,
  canDelete,
  canCreateFolder,
}: {
  creatives: LibraryCreative[];
  folders: LibraryFolder[];
  initialFolder: string | null;
  canDelete: boolean;
  canCreateFolder: boolean;
}) {
  const router = useRouter();
  const [folder, setFolder] = useState<string | null>(initialFolder);
  const [query, setQuery] = useState("");
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, start] = useTransition();

  const visible = useMemo(() => {
    const inFolder = folder ? subtree(folders, folder) : null;
    const q = query.trim().toLowerCase();
    return creatives.filter((c) => (!inFolder || (c.folderId && inFolder.has(c.folderId))) && (!q || c.fileName.toLowerCase().includes(q)));
  }, [creatives, folders, folder, query]);

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allVisibleSelected = visible.length > 0 && visible.every((c) => selected.has(c.id));

  const deleteSelected = () =>
    start(async () => {
      const ids = [...selected];
      let deleted = 0;
      try {
        for (let i = 0; i < ids.length; i += DELETE_BATCH) {
          deleted += (await apiFetch<{ deleted: number }>("/api/v1/creatives", { method: "DELETE", json: { ids: ids.slice(i, i + DELETE_BATCH) } })).deleted;
        }
        setError(null);
        setNotice(`Deleted ${deleted} creative${deleted === 1 ? "" : "s"}.`);
        setSelected(new Set());
      } catch (e) {
        setError(e instanceof ApiError ? e.message : "Deleting failed. Please try again.");
      }
      setConfirming(false);
      router.refresh();
    });

  return (
    <div className="flex gap-6">
      {(folders.length > 0 || canCreateFolder) && (
        <nav aria-label="Folders" className="w-52 shrink-0">
          <FolderTree folders={folders} selected={folder} onSelect={setFolder} canCreate={canCreateFolder} />
        </nav>
      )}
      <div className="min-w-0 flex-1 space-y-4">
        <div className="flex flex-wrap items-center gap-3">
          <label htmlFor="library-search" className="sr-only">
            Search by file name
          </label>
          <input id="library-search" type="search" placeholder="Search by file name" value={query} onChange={(e) => setQuery(e.target.value)} className={`${inputClass} max-w-xs`} />
          <span className="text-sm text-slate-600" aria-live="polite">
            {visible.length.toLocaleString("en-US")} shown
          </span>
          {canDelete && (
            <div className="ml-auto flex items-center gap-2">
              <label className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  className="accent-indigo-600"
                  checked={allVisibleSelected}
                  onChange={() => setSelected(allVisibleSelected ? new Set() : new Set(visible.map((c) => c.id)))}
                />
                Select all shown
              </label>
              <Button variant="danger" size="sm" disabled={selected.size === 0 || pending} onClick={() => setConfirming(true)}>
                Delete {selected.size > 0 ? selected.size : ""} selected
              </Button>
            </div>
          )}
        </div>
        {error && <Alert>{error}</Alert>}
        {notice && <Alert tone="green">{notice}</Alert>}
        {visible.length === 0 ? (
          <EmptyState title={query ? `Nothing matches “${query}”` : "This folder is empty"}>{query ? "Try another part of the file name." : "Upload into this folder from the Uploads page."}</EmptyState>
        ) : (
          <ul className="grid grid-cols-[repeat(auto-fill,minmax(180px,1fr))] gap-4" data-testid="library-grid">
            {visible.map((c, index) => (
              <CreativeTile key={c.id} creative={c} eager={index < 12} selectable={canDelete} selected={selected.has(c.id)} onToggle={() => toggle(c.id)} />
            ))}
          </ul>
        )}
      </div>
      <ConfirmDialog open={confirming} title={`Delete ${selected.size} creative${selected.size === 1 ? "" : "s"}?`} confirmLabel="Delete" busy={pending} onCancel={() => setConfirming(false)} onConfirm={deleteSelected}>
        Their media files and copy variants are deleted too. Ads already on your ad accounts are not affected. This cannot be undone.
      </ConfirmDialog>
    </div>
  );
}

function CreativeTile({ creative: c, eager, selectable, selected, onToggle }: { creative: LibraryCreative; eager: boolean; selectable: boolean; selected: boolean; onToggle: () => void }) {
  return (
    <li data-testid="creative-tile" className={`group relative overflow-hidden rounded-lg border bg-white shadow-xs ${selected ? "border-indigo-500 ring-2 ring-indigo-500" : "border-slate-200"}`}>
      {selectable && (
        <label className="absolute left-2 top-2 z-10 grid size-7 place-items-center rounded bg-white/90 shadow-xs">
          <span className="sr-only">Select {c.fileName}</span>
          <input type="checkbox" className="accent-indigo-600" checked={selected} onChange={onToggle} />
        </label>
      )}
      <Link href={`/dashboard/library/${c.id}`} className="block focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600">
        {/* A fixed square box: thumbnails load into reserved space, so nothing shifts. */}
        <div className="relative aspect-square w-full bg-slate-100">
          {c.mediaPath && c.kind === "image" && (
            // eslint-disable-next-line @next/next/no-img-element -- media is served by our API with the session, not by next/image
            <img
              src={c.mediaPath}
              alt={c.fileName}
              width={c.width ?? undefined}
              height={c.height ?? undefined}
              loading={eager ? "eager" : "lazy"}
              decoding="async"
              className="absolute inset-0 size-full object-contain"
            />
          )}
          {c.mediaPath && c.kind === "video" && <LazyVideoThumb src={c.previewPath ?? c.mediaPath} label={c.fileName} />}
          {!c.mediaPath && <span className="absolute inset-0 grid place-items-center text-sm text-slate-500">{c.status === "failed" ? "Import failed" : "Importing…"}</span>}
          {c.kind === "video" && (
            <span aria-hidden className="absolute bottom-2 right-2 grid size-7 place-items-center rounded-full bg-slate-900/70 text-xs text-white">
              ▶
            </span>
          )}
        </div>
        <div className="space-y-1 p-2.5">
          <p className="truncate text-sm font-medium text-slate-900" title={c.fileName}>
            {c.fileName}
          </p>
          <div className="flex flex-wrap items-center gap-1">
            <Badge tone={c.kind === "video" ? "sky" : "indigo"}>{c.kind}</Badge>
            {c.status !== "ready" && <Badge tone={STATUS_TONE[c.status]}>{c.status}</Badge>}
            {c.width && c.height && (
              <span className="text-xs text-slate-500">
                {c.width}×{c.height}
              </span>
            )}
            {c.copyCount > 0 && <span className="text-xs text-slate-500">· {c.copyCount} copy</span>}
          </div>
        </div>
      </Link>
    </li>
  );
}

/** Loads a video's first frame only when its tile scrolls into view (video has no loading="lazy"). */
function LazyVideoThumb({ src, label }: { src: string; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [show, setShow] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new IntersectionObserver(([entry]) => entry?.isIntersecting && (setShow(true), observer.disconnect()), { rootMargin: "200px" });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref} className="absolute inset-0">
      {show && <video src={`${src}#t=0.1`} muted preload="metadata" playsInline aria-label={label} className="size-full object-contain" />}
    </div>
  );
}
