"use client";
import { CreativeThumbnail } from "@/components/ui/creative-thumbnail";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { memo, useCallback, useEffect, useMemo, useRef, useState, useTransition } from "react";
import { ApiError, apiFetch } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { inputClass, Select } from "@/components/ui/field";
import { Alert, Badge, EmptyState } from "@/components/ui/misc";
import type { CreativeFilters } from "@/lib/read-models/library";
import type { LibraryItem } from "@/lib/read-models/library";
import type { LibraryFolder } from "@/lib/read-models/library";
import { FolderPanel } from "./folder-panel";
import { filtersToUrl } from "./library-filters";
import { loadLibraryPageAction, moveCreativesAction } from "./library-actions";

const DELETE_BATCH = 200;
const STATUS_TONE = { ready: "green", importing: "amber", failed: "rose" } as const;
type Page = { items: LibraryItem[]; nextCursor: string | null; total: number | null };
/** The drag payload of a tile: the ids being moved (the selection when the tile is part of it). */
const DRAG_TYPE = "application/x-adloom-creatives";

/**
 * The last notice, kept in the tab's session storage for a few seconds: a folder change refreshes the page for a
 * new URL, which can render the library anew (its state gone) just after the notice was set, so the remounted
 * library shows it again rather than losing "Deleted the folder …". Older than that, it is not repeated.
 */
const NOTICE_KEY = "adloom.library.notice";
const NOTICE_CARRY_MS = 5_000;

function carriedNotice(): string | null {
  try {
    const saved = JSON.parse(sessionStorage.getItem(NOTICE_KEY) ?? "null") as { text: string; at: number } | null;
    return saved && Date.now() - saved.at < NOTICE_CARRY_MS ? saved.text : null;
  } catch {
    return null; // storage unavailable or not ours: nothing carried
  }
}

function carryNotice(text: string | null): void {
  try {
    if (text) sessionStorage.setItem(NOTICE_KEY, JSON.stringify({ text, at: Date.now() }));
    else sessionStorage.removeItem(NOTICE_KEY);
  } catch {
    // storage unavailable: the notice shows, it is only not carried
  }
}

async function fetchPage(filters: CreativeFilters, cursor: string | null): Promise<Page> {
  const result = await loadLibraryPageAction(filters, cursor);
  if (!result.ok) throw new Error(result.error);
  return result.data;
}

export function LibraryBrowser({
  firstPage,
  initialFilters,
  folders,
  uploaders,
  canDelete,
  canMove,
  canWriteFolders,
  canDeleteFolders,
}: {
  firstPage: Page;
  initialFilters: CreativeFilters;
  folders: LibraryFolder[];
  uploaders: { id: string; name: string }[];
  canDelete: boolean;
  canMove: boolean;
  canWriteFolders: boolean;
  canDeleteFolders: boolean;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [filters, setFiltersState] = useState<CreativeFilters>(initialFilters);
  const [searchText, setSearchText] = useState(initialFilters.search ?? "");
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [moveTarget, setMoveTarget] = useState<string>("");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNoticeState] = useState<string | null>(null);
  const setNotice = (text: string | null) => {
    carryNotice(text);
    setNoticeState(text);
  };
  // After a remount, not in the first render: the server's render has no notice to match.
  useEffect(() => {
    const carried = carriedNotice();
    if (carried) setNoticeState(carried);
  }, []);
  const [pending, start] = useTransition();
  const [showFilters, setShowFilters] = useState(false);

  // The latest filters, for the debounced search (its timer must not restore filters changed meanwhile).
  const latestFilters = useRef(filters);
  latestFilters.current = filters;
  const setFilters = (patch: Partial<CreativeFilters>) => {
    const next = { ...latestFilters.current, ...patch };
    latestFilters.current = next;
    for (const k of Object.keys(next) as (keyof CreativeFilters)[]) if (next[k] === "" || (next[k] === undefined && k !== "folderId")) delete next[k];
    setFiltersState(next);
    // Outside the state update: Next's router listens to replaceState and re-renders useSearchParams readers.
    window.history.replaceState(null, "", filtersToUrl(next, window.location.href));
  };
  // Search as you type: the first keystroke after a pause searches at once (the answer comes
  // quickly), keystrokes in a burst wait until typing pauses (each would otherwise be a query).
  const lastSearchAt = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: searches when the typed text changes; it reads the filters of that moment
  useEffect(() => {
    const q = searchText.trim();
    if ((filters.search ?? "") === q) return;
    const run = () => {
      lastSearchAt.current = Date.now();
      setFilters({ search: q || undefined });
    };
    if (Date.now() - lastSearchAt.current > 400) return run();
    const t = setTimeout(run, 150);
    return () => clearTimeout(t);
  }, [searchText]);

  const isInitial = JSON.stringify(filters) === JSON.stringify(initialFilters);
  const library = useInfiniteQuery({
    queryKey: ["library", filters],
    queryFn: ({ pageParam }) => fetchPage(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    initialData: isInitial ? { pages: [firstPage], pageParams: [null] } : undefined,
    staleTime: 30_000,
  });
  // One array per answer, not per render: the grid below re-renders only when its items or selection change.
  const items = useMemo(() => (library.data?.pages ?? []).flatMap((p) => p.items), [library.data]);
  const total = library.data?.pages[0]?.total ?? null;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["library"] });

  // Infinite scroll: the next page loads when the sentinel below the grid comes near the viewport.
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = sentinel.current;
    if (!el) return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (entry?.isIntersecting && library.hasNextPage && !library.isFetchingNextPage) void library.fetchNextPage();
      },
      { rootMargin: "600px" },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [library.hasNextPage, library.isFetchingNextPage, library.fetchNextPage]); // eslint-disable-line react-hooks/exhaustive-deps

  const toggle = useCallback(
    (id: string) =>
      setSelected((s) => {
        const next = new Set(s);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );
  const allShownSelected = items.length > 0 && items.every((c) => selected.has(c.id));

  const move = (ids: string[], folderId: string | null) =>
    start(async () => {
      const result = await moveCreativesAction(ids, folderId);
      if (!result.ok) return setError(result.error);
      setError(null);
      const where = folderId ? (folders.find((f) => f.id === folderId)?.name ?? "the folder") : "the library root";
      setNotice(`Moved ${result.data.moved} creative${result.data.moved === 1 ? "" : "s"} to ${where}.`);
      setSelected(new Set());
      setMoveTarget("");
      await refresh();
    });

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
      await refresh();
      router.refresh();
    });

  const activeFilterCount = Object.entries(filters).filter(([k, v]) => k !== "search" && k !== "folderId" && v !== undefined).length;
  // The folder is where one looks, not a filter: an empty folder says so.
  const filtered = Object.entries(filters).some(([k, v]) => k !== "sort" && k !== "folderId" && v !== undefined);
  return (
    <div className="flex flex-col gap-6 md:flex-row">
      <nav aria-label="Folders" className="md:w-56 md:shrink-0">
        <FolderPanel
          folders={folders}
          selected={filters.folderId}
          onSelect={(folderId) => setFilters({ folderId })}
          canWrite={canWriteFolders}
          canDelete={canDeleteFolders}
          onDropCreatives={canMove ? (ids, folderId) => move(ids, folderId) : undefined}
          onChanged={(message) => {
            setNotice(message);
            setError(null);
            void refresh();
          }}
          onError={setError}
        />
      </nav>
      <div className="min-w-0 flex-1 space-y-4">
        <div className="flex flex-wrap items-end gap-3">
          <div className="flex w-full gap-2 sm:w-64">
            <div className="min-w-0 flex-1">
              <label htmlFor="library-search" className="sr-only">
                Search by file name
              </label>
              <input
                id="library-search"
                type="search"
                placeholder="Search by file name"
                value={searchText}
                onChange={(e) => setSearchText(e.target.value)}
                className={inputClass}
              />
            </div>
            {/* On a phone the filters fold away behind this button, so the grid starts on the first screen. */}
            <Button
              variant="secondary"
              className="md:hidden"
              aria-expanded={showFilters}
              aria-controls="library-filters"
              onClick={() => setShowFilters((v) => !v)}
            >
              Filters{activeFilterCount ? ` (${activeFilterCount})` : ""}
            </Button>
          </div>
          {/* A line of its own at every width, filters aligned at the top: on a slow connection the page paints
              as it streams in, and beside the search box the filters would jump to the next line as more of
              them arrived, or a filter whose label came first would move up when its field followed. */}
          <div id="library-filters" className={`${showFilters ? "flex" : "hidden"} w-full flex-wrap items-start gap-3 md:flex`}>
            <FilterSelect
              id="filter-kind"
              label="Type"
              value={filters.kind}
              onChange={(v) => setFilters({ kind: v as CreativeFilters["kind"] })}
              options={[
                ["image", "Images"],
                ["video", "Videos"],
              ]}
              all="Any type"
            />
            <FilterSelect
              id="filter-aspect"
              label="Aspect ratio"
              value={filters.aspect}
              onChange={(v) => setFilters({ aspect: v as CreativeFilters["aspect"] })}
              options={[
                ["square", "Square"],
                ["portrait", "Portrait"],
                ["landscape", "Landscape"],
              ]}
              all="Any shape"
            />
            <FilterSelect
              id="filter-status"
              label="Status"
              value={filters.status}
              onChange={(v) => setFilters({ status: v as CreativeFilters["status"] })}
              options={[
                ["ready", "Ready"],
                ["importing", "Importing"],
                ["failed", "Failed"],
              ]}
              all="Any status"
            />
            <FilterSelect
              id="filter-uploader"
              label="Uploader"
              value={filters.uploaderId}
              onChange={(v) => setFilters({ uploaderId: v })}
              options={uploaders.map((u) => [u.id, u.name])}
              all="Anyone"
            />
            <DateFilter id="filter-after" label="Added from" value={filters.createdAfter} onChange={(v) => setFilters({ createdAfter: v })} />
            <DateFilter id="filter-before" label="Added until" value={filters.createdBefore} onChange={(v) => setFilters({ createdBefore: v })} endOfDay />
            <FilterSelect
              id="filter-sort"
              label="Sort"
              value={filters.sort}
              onChange={(v) => setFilters({ sort: v as CreativeFilters["sort"] })}
              options={[
                ["oldest", "Oldest first"],
                ["name", "Name A–Z"],
              ]}
              all="Newest first"
            />
          </div>
        </div>
        {/* Every item is 40 px tall and the line starts at the left, so controls arriving later (a slow
            connection paints the page as it streams in) never move those already shown. */}
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <span className="flex h-10 items-center text-sm text-slate-600" aria-live="polite" data-testid="library-count">
            {library.isFetching && !library.isFetchingNextPage ? "Searching…" : total !== null ? `${total.toLocaleString("en-US")} found` : ""}
          </span>
          {(canDelete || canMove) && (
            <>
              <label className="flex h-10 items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  className="accent-indigo-600"
                  checked={allShownSelected}
                  onChange={() => setSelected(allShownSelected ? new Set() : new Set(items.map((c) => c.id)))}
                />
                Select all shown
              </label>
              {canMove && (
                <>
                  <label htmlFor="move-target" className="sr-only">
                    Move selected to
                  </label>
                  <Select
                    id="move-target"
                    className="h-10 w-40"
                    value={moveTarget}
                    onChange={(e) => setMoveTarget(e.target.value)}
                    disabled={selected.size === 0}
                  >
                    <option value="">Move to…</option>
                    <option value="root">Library root</option>
                    {folders.map((f) => (
                      <option key={f.id} value={f.id}>
                        {f.name}
                      </option>
                    ))}
                  </Select>
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={selected.size === 0 || !moveTarget || pending}
                    onClick={() => move([...selected], moveTarget === "root" ? null : moveTarget)}
                  >
                    Move {selected.size > 0 ? selected.size : ""} selected
                  </Button>
                </>
              )}
              {canDelete && (
                <Button variant="danger" size="sm" disabled={selected.size === 0 || pending} onClick={() => setConfirming(true)}>
                  Delete {selected.size > 0 ? selected.size : ""} selected
                </Button>
              )}
            </>
          )}
        </div>
        {error && <Alert>{error}</Alert>}
        {notice && <Alert tone="green">{notice}</Alert>}
        {library.isError && <Alert>{(library.error as Error).message}</Alert>}
        {library.isSuccess && items.length === 0 ? (
          <EmptyState title={filtered ? "Nothing matches these filters" : "This folder is empty"}>
            {filtered ? "Try another part of the file name, or clear a filter." : "Upload into this folder from the Uploads page."}
          </EmptyState>
        ) : (
          <TileGrid items={items} selected={selected} selectable={canDelete || canMove} draggable={canMove} onToggle={toggle} />
        )}
        <div ref={sentinel} aria-hidden className="h-px" />
        {library.isFetchingNextPage && <p className="text-center text-sm text-slate-600">Loading more…</p>}
        {library.hasNextPage && !library.isFetchingNextPage && (
          <div className="text-center">
            <Button variant="secondary" size="sm" onClick={() => void library.fetchNextPage()}>
              Show more
            </Button>
          </div>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Delete ${selected.size} creative${selected.size === 1 ? "" : "s"}?`}
        confirmLabel="Delete"
        busy={pending}
        onCancel={() => setConfirming(false)}
        onConfirm={deleteSelected}
      >
        Their media files and copy variants are deleted too. Ads already on your ad accounts are not affected. This cannot be undone.
      </ConfirmDialog>
    </div>
  );
}

function FilterSelect({
  id,
  label,
  value,
  onChange,
  options,
  all,
}: {
  id: string;
  label: string;
  value: string | undefined;
  onChange: (v: string | undefined) => void;
  options: [string, string][];
  all: string;
}) {
  return (
    <div className="w-[calc(50%-0.375rem)] space-y-1 sm:w-36">
      <label htmlFor={id} className="block text-xs font-medium text-slate-600">
        {label}
      </label>
      <Select id={id} className="h-10" value={value ?? ""} onChange={(e) => onChange(e.target.value || undefined)}>
        <option value="">{all}</option>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </Select>
    </div>
  );
}

/** A date input whose value travels as an ISO time: the day's start, or (endOfDay) the next day's start. */
function DateFilter({
  id,
  label,
  value,
  onChange,
  endOfDay = false,
}: {
  id: string;
  label: string;
  value: string | undefined;
  onChange: (v: string | undefined) => void;
  endOfDay?: boolean;
}) {
  const day = value ? new Date(new Date(value).getTime() - (endOfDay ? 86_400_000 : 0)).toISOString().slice(0, 10) : "";
  return (
    <div className="w-[calc(50%-0.375rem)] space-y-1 sm:w-40">
      <label htmlFor={id} className="block text-xs font-medium text-slate-600">
        {label}
      </label>
      <input
        id={id}
        type="date"
        className={`${inputClass} h-10`}
        value={day}
        onChange={(e) => {
          const v = e.target.value;
          if (!v) return onChange(undefined);
          const start = new Date(`${v}T00:00:00Z`).getTime();
          onChange(new Date(start + (endOfDay ? 86_400_000 : 0)).toISOString());
        }}
      />
    </div>
  );
}

/**
 * The tiles, memoised: typing in the search box re-renders the browser on each keystroke, and re-rendering 60 or
 * more tiles there was most of the keystroke's work before its search could start.
 */
const TileGrid = memo(function TileGrid({
  items,
  selected,
  selectable,
  draggable,
  onToggle,
}: {
  items: LibraryItem[];
  selected: ReadonlySet<string>;
  selectable: boolean;
  draggable: boolean;
  onToggle: (id: string) => void;
}) {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-[repeat(auto-fill,minmax(180px,1fr))] sm:gap-4" data-testid="library-grid">
      {items.map((c, index) => (
        <CreativeTile
          key={c.id}
          creative={c}
          eager={index < 12}
          selectable={selectable}
          draggable={draggable}
          selected={selected.has(c.id)}
          onToggle={() => onToggle(c.id)}
          dragIds={() => (selected.has(c.id) ? [...selected] : [c.id])}
        />
      ))}
    </ul>
  );
});

function CreativeTile({
  creative: c,
  eager,
  selectable,
  draggable,
  selected,
  onToggle,
  dragIds,
}: {
  creative: LibraryItem;
  eager: boolean;
  selectable: boolean;
  draggable: boolean;
  selected: boolean;
  onToggle: () => void;
  dragIds: () => string[];
}) {
  return (
    <li
      data-testid="creative-tile"
      data-creative-id={c.id}
      draggable={draggable}
      onDragStart={(e) => {
        e.dataTransfer.setData(DRAG_TYPE, JSON.stringify(dragIds()));
        e.dataTransfer.effectAllowed = "move";
      }}
      className={`group relative overflow-hidden rounded-lg border bg-white shadow-xs ${selected ? "border-indigo-500 ring-2 ring-indigo-500" : "border-slate-200"}`}
    >
      {selectable && (
        <label className="absolute left-2 top-2 z-10 grid size-7 place-items-center rounded bg-white/90 shadow-xs">
          <span className="sr-only">Select {c.fileName}</span>
          <input type="checkbox" className="accent-indigo-600" checked={selected} onChange={onToggle} />
        </label>
      )}
      {/* No prefetch: a grid of links would fetch every creative's page as it scrolls into view. */}
      <Link
        href={`/dashboard/library/${c.id}`}
        prefetch={false}
        className="block focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        {/* A fixed square box: thumbnails load into reserved space, so nothing shifts. */}
        <div className="relative aspect-square w-full bg-slate-100">
          {c.mediaPath && c.thumbnails && (
            <CreativeThumbnail
              thumbnails={c.thumbnails}
              alt={c.fileName}
              sizes="(min-width: 640px) 280px, 50vw"
              eager={eager}
              width={c.width}
              height={c.height}
              className="absolute inset-0 size-full object-contain"
            />
          )}
          {c.mediaPath && !c.thumbnails && c.kind === "video" && <LazyVideoThumb src={c.previewPath ?? c.mediaPath} label={c.fileName} />}
          {!c.mediaPath && (
            <span className="absolute inset-0 grid place-items-center text-sm text-slate-500">{c.status === "failed" ? "Import failed" : "Importing…"}</span>
          )}
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
              <span className="text-xs text-slate-600">
                {c.width}×{c.height}
              </span>
            )}
            {c.copyCount > 0 && <span className="text-xs text-slate-600">· {c.copyCount} copy</span>}
          </div>
          {c.duplicateOf && (
            <p data-testid="duplicate-of" className="truncate text-xs font-medium text-amber-800" title={`Same file as ${c.duplicateOf.fileName}`}>
              Duplicate of {c.duplicateOf.fileName}
            </p>
          )}
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
