"use client";
import "@xyflow/react/dist/style.css";
import {
  applyEdgeChanges,
  applyNodeChanges,
  Background,
  Controls,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Connection,
  type Edge,
  type EdgeChange,
  type NodeChange,
} from "@xyflow/react";
import Link from "next/link";
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import type { ToolAnswer, ToolInput, ToolName, ToolOutput } from "@/components/dashboard/tool-call";
import { NODE_TYPES, toFlow, type BoardItem, type ItemNode } from "@/components/boards/board-nodes";
import { useFittedViewport } from "@/components/boards/fitted-viewport";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Select, SelectField, TextArea } from "@/components/ui/field";
import { Alert } from "@/components/ui/misc";
import { fromWire } from "@/lib/dashboard/board-wire";
import type { CanvasPage } from "@/lib/dashboard/boards-page";
import { callBoardsTool } from "../actions";

type BoardPage = CanvasPage;
type Creative = ToolOutput<"list_creatives">["creatives"][number];
type ItemWrite = "move_board_item" | "resize_board_item" | "edit_board_item";
type WriteArgs<N extends ItemWrite> = Omit<ToolInput<N>, "id" | "version"> | ((current: BoardItem) => Omit<ToolInput<N>, "id" | "version">);

const MIN_ZOOM = 0.05;
/** Creatives the card picker lists at once: the newest, or the newest matching its search. */
const PICKER_PAGE = 100;

/** How often an open board asks whether someone else changed it (changes show within two seconds). */
const POLL_MS = 500;

const GROUPS = [
  ["label", "Performance label"],
  ["naming_token", "Naming token"],
  ["ad_account", "Ad account"],
  ["review_status", "Review status"],
  ["none", "No groups"],
] as const;
const SORTS = [
  ["spend", "Spend"],
  ["cpa", "CPA"],
  ["roas", "ROAS"],
  ["name", "Name"],
] as const;

/** `initialWire`: the board as one compact JSON string (lib/dashboard/board-wire.ts), read once here. */
export function BoardCanvas({ initialWire, ...props }: { initialWire: string; canWrite: boolean; canAnnotate: boolean; canShare: boolean }) {
  const initial = useMemo(() => fromWire(initialWire), [initialWire]);
  return (
    <ReactFlowProvider>
      <Canvas initial={initial} {...props} />
    </ReactFlowProvider>
  );
}

function Canvas({ initial, canWrite, canAnnotate, canShare }: { initial: BoardPage; canWrite: boolean; canAnnotate: boolean; canShare: boolean }) {
  const boardId = initial.board.id;
  const flow = useReactFlow();
  const wrapper = useRef<HTMLDivElement>(null);
  const items = useRef(new Map(initial.items.map((i) => [i.id, i])));
  const revision = useRef(initial.board.revision);
  const inFlight = useRef(0);
  const dragging = useRef(false);
  const queues = useRef(new Map<string, Promise<void>>());
  const moveTimers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const [name, setName] = useState(initial.board.name);
  const [problem, setProblem] = useState<string | null>(null);
  const [shareUrl, setShareUrl] = useState<string | null>(null);
  const [selection, setSelection] = useState<string[]>([]);
  const [, setTick] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: write and noteRevision read and write refs only, and initial.board is the first render's; none of them needs to be a dependency
  const onResizeEnd = useCallback((id: string, box: { x: number; y: number; width: number; height: number }) => {
    write(id, "resize_board_item", {
      x: Math.round(box.x),
      y: Math.round(box.y),
      width: Math.max(1, Math.round(box.width)),
      height: Math.max(1, Math.round(box.height)),
    });
  }, []);
  const flowOf = useCallback(
    (list: BoardItem[], selected: ReadonlySet<string>) =>
      toFlow(list, { editable: canWrite, imageUrl: (i) => i.card?.thumbnails?.small ?? i.card?.mediaPath ?? null, selected, onResizeEnd }),
    [canWrite, onResizeEnd],
  );
  const first = useMemo(() => flowOf(initial.items, new Set()), [flowOf, initial.items]);
  const [nodes, setNodes] = useState<ItemNode[]>(first.nodes);
  const [edges, setEdges] = useState<Edge[]>(first.edges);
  const selectedRef = useRef(new Set<string>());
  const viewport = useFittedViewport(wrapper, first.nodes, { min: MIN_ZOOM, max: 1 });

  const show = useCallback(
    (page: BoardPage) => {
      items.current = new Map(page.items.map((i) => [i.id, i]));
      revision.current = page.board.revision;
      setName(page.board.name);
      const next = flowOf(page.items, selectedRef.current);
      setNodes(next.nodes);
      setEdges(next.edges);
      setTick((t) => t + 1);
    },
    [flowOf],
  );

  const reload = useCallback(async () => {
    const answer = await callBoardsTool("get_board", { id: boardId });
    if (answer.ok) show(answer.result);
    else setProblem(answer.message);
  }, [boardId, show]);

  /** Runs a tool call; writes to one item run one after another, each with the version the previous one left. */
  const run = useCallback(async <N extends ToolName>(name: N, args: ToolInput<N>): Promise<ToolAnswer<ToolOutput<N>>> => {
    inFlight.current++;
    try {
      return await callBoardsTool(name, args);
    } finally {
      inFlight.current--;
    }
  }, []);

  /** Our own write moved the revision by one: nothing else happened meanwhile, so no reload is needed. */
  const noteRevision = (next: number) => {
    if (next === revision.current + 1) revision.current = next;
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: write and noteRevision read and write refs only, and initial.board is the first render's; none of them needs to be a dependency
  const afterWrite = useCallback(
    async (answer: ToolAnswer<{ item: BoardItem; revision: number }>) => {
      if (answer.ok) {
        const before = items.current.get(answer.result.item.id);
        items.current.set(answer.result.item.id, answer.result.item);
        noteRevision(answer.result.revision);
        if (before && before.orderKey !== answer.result.item.orderKey) return reload();
        setNodes((nds) => nds.map((n) => (n.id === answer.result.item.id ? { ...n, data: { ...n.data, item: answer.result.item } } : n)));
        return;
      }
      setProblem(
        answer.code === "conflict"
          ? "Someone else changed that item just now: the board shows their change. Try again if you still want yours."
          : answer.message,
      );
      await reload();
    },
    [reload],
  );

  /** `args` may be a function of the item as it stands when the write runs (after the writes queued before it). */
  function write<N extends ItemWrite>(id: string, name: N, args: WriteArgs<N>) {
    inFlight.current++;
    const previous = queues.current.get(id) ?? Promise.resolve();
    const next = previous
      .then(async () => {
        const current = items.current.get(id);
        if (current === undefined) return;
        const given = typeof args === "function" ? args(current) : args;
        await afterWrite(
          (await callBoardsTool(name, { ...given, id, version: current.version } as ToolInput<N>)) as ToolAnswer<{ item: BoardItem; revision: number }>,
        );
      })
      .catch(() => setProblem("Could not save. Check your connection; the board reloads."))
      .finally(() => {
        inFlight.current--;
        if (queues.current.get(id) === next) queues.current.delete(id);
      });
    queues.current.set(id, next);
  }

  // Someone else's change: poll the revision (cheap) and reload the board when it moved, unless we are mid-change:
  // a write in flight, a drag, or a move waiting to be saved (arrow keys). One poll at a time: on a slow connection a
  // second poll would see the old revision while the first one's reload is on its way, and reload again later,
  // between two arrow key presses, putting the card back where the server last had it.
  useEffect(() => {
    let stopped = false;
    let polling = false;
    const midChange = () => inFlight.current > 0 || dragging.current || moveTimers.current.size > 0;
    const timer = setInterval(async () => {
      if (stopped || polling || midChange() || document.hidden) return;
      polling = true;
      try {
        const answer = await callBoardsTool("get_board_revision", { id: boardId });
        if (stopped || !answer.ok || answer.result.revision === revision.current || midChange()) return;
        // A change begun while the board was on its way wins: the next poll brings the board again.
        const page = await callBoardsTool("get_board", { id: boardId });
        if (!stopped && page.ok && !midChange()) show(page.result);
      } finally {
        polling = false;
      }
    }, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [boardId, show]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: write and noteRevision read and write refs only, and initial.board is the first render's; none of them needs to be a dependency
  const onNodesChange = useCallback((changes: NodeChange<ItemNode>[]) => {
    setNodes((nds) => applyNodeChanges(changes, nds));
    for (const change of changes) {
      if (change.type === "select") {
        if (change.selected) selectedRef.current.add(change.id);
        else selectedRef.current.delete(change.id);
        setSelection([...selectedRef.current]);
      }
      if (change.type !== "position" || !change.position) continue;
      if (change.dragging) {
        dragging.current = true;
        continue;
      }
      if (change.dragging === false) {
        // The end of a drag, or an arrow key: save the last position once the keys rest.
        dragging.current = false;
        const { x, y } = change.position;
        clearTimeout(moveTimers.current.get(change.id));
        moveTimers.current.set(
          change.id,
          setTimeout(() => {
            moveTimers.current.delete(change.id);
            write(change.id, "move_board_item", { x: Math.round(x), y: Math.round(y) });
          }, 150),
        );
      }
    }
  }, []);

  const onEdgesChange = useCallback((changes: EdgeChange[]) => {
    setEdges((eds) => applyEdgeChanges(changes, eds));
    for (const change of changes) {
      if (change.type !== "select") continue;
      if (change.selected) selectedRef.current.add(change.id);
      else selectedRef.current.delete(change.id);
      setSelection([...selectedRef.current]);
    }
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: write and noteRevision read and write refs only, and initial.board is the first render's; none of them needs to be a dependency
  const connect = useCallback(
    async (fromItemId: string, toItemId: string) => {
      const answer = await run("add_board_item", { boardId, kind: "connector", fromItemId, toItemId });
      if (!answer.ok) return setProblem(answer.message);
      noteRevision(answer.result.revision);
      items.current.set(answer.result.item.id, answer.result.item);
      show({ board: { ...initial.board, name, revision: revision.current }, items: [...items.current.values()] });
    },
    [boardId, run, show, name],
  );

  const onConnect = useCallback((c: Connection) => void (c.source && c.target && c.source !== c.target && connect(c.source, c.target)), [connect]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: write and noteRevision read and write refs only, and initial.board is the first render's; none of them needs to be a dependency
  const onDelete = useCallback(
    async ({ nodes: gone, edges: goneEdges }: { nodes: ItemNode[]; edges: Edge[] }) => {
      const goneIds = new Set(gone.map((n) => n.id));
      const targets = [...gone.map((n) => n.id), ...goneEdges.filter((e) => !goneIds.has(e.source) && !goneIds.has(e.target)).map((e) => e.id)];
      for (const id of targets) {
        const version = items.current.get(id)?.version;
        const answer = await run("remove_board_item", { id, ...(version ? { version } : {}) });
        if (!answer.ok) {
          setProblem(answer.code === "conflict" ? "Someone else changed that item just now, so it was not removed." : answer.message);
          await reload();
          return;
        }
        for (const removed of answer.result.removed) items.current.delete(removed);
        noteRevision(answer.result.revision);
      }
      for (const id of targets) selectedRef.current.delete(id);
      setSelection([...selectedRef.current]);
    },
    [run, reload],
  );

  /** Where a new item goes: the middle of what the canvas shows now. */
  const centre = () => {
    const box = wrapper.current?.getBoundingClientRect();
    const p = box ? flow.screenToFlowPosition({ x: box.left + box.width / 2, y: box.top + box.height / 2 }) : { x: 0, y: 0 };
    return { x: Math.round(p.x - 100), y: Math.round(p.y - 70) };
  };

  const add = async (args: Omit<ToolInput<"add_board_item">, "boardId">) => {
    setProblem(null);
    const answer = await run("add_board_item", { boardId, ...centre(), ...args });
    if (!answer.ok) return setProblem(answer.message);
    noteRevision(answer.result.revision);
    items.current.set(answer.result.item.id, answer.result.item);
    selectedRef.current = new Set([answer.result.item.id]);
    setSelection([answer.result.item.id]);
    const list = [...items.current.values()].sort((a, b) => (a.orderKey < b.orderKey ? -1 : a.orderKey > b.orderKey ? 1 : 0));
    show({ board: { ...initial.board, name, revision: revision.current }, items: list });
  };

  const selectedNodes = selection.filter((id) => items.current.get(id) && items.current.get(id)!.kind !== "connector");
  // The side panel follows the selection in a later, interruptible render: a click answers on the canvas first.
  const shown = useDeferredValue(selection);
  const shownNodes = shown.filter((id) => items.current.get(id) && items.current.get(id)!.kind !== "connector");
  const single = shown.length === 1 ? items.current.get(shown[0]!) : undefined;

  return (
    <div className="space-y-3">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{name}</h1>
        {canShare && (
          <div className="flex flex-wrap items-center gap-2">
            <Button
              variant="secondary"
              size="sm"
              onClick={async () => {
                const answer = await run("share_board", { boardId });
                if (answer.ok) setShareUrl(answer.result.boardUrl);
                else setProblem(answer.message);
              }}
            >
              Share read-only
            </Button>
            {shareUrl && (
              <span className="flex items-center gap-2 text-sm">
                <a href={shareUrl} className="max-w-48 truncate text-indigo-700 underline" target="_blank" rel="noreferrer">
                  Guest link
                </a>
                <CopyButton value={shareUrl} label="Copy link" />
              </span>
            )}
          </div>
        )}
      </header>
      {canWrite && (
        <Toolbar
          onAdd={add}
          onConnect={() => selectedNodes.length === 2 && connect(selectedNodes[0]!, selectedNodes[1]!)}
          canConnect={selectedNodes.length === 2}
          boardId={boardId}
          onArranged={(page) => {
            show(page);
            setTimeout(() => flow.fitView({ duration: 200 }), 50);
          }}
          setProblem={setProblem}
          run={run}
        />
      )}
      {problem && (
        <div role="status">
          <Alert tone="amber">
            {problem}{" "}
            <button type="button" className="underline" onClick={() => setProblem(null)}>
              Dismiss
            </button>
          </Alert>
        </div>
      )}
      <div className="grid gap-3 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div
          ref={wrapper}
          className="h-[calc(100dvh-17rem)] min-h-[22rem] overflow-hidden rounded-lg border border-slate-200 bg-white"
          data-testid="board-canvas"
        >
          {viewport && (
            <ReactFlow
              nodes={nodes}
              edges={edges}
              nodeTypes={NODE_TYPES}
              onNodesChange={onNodesChange}
              onEdgesChange={onEdgesChange}
              onConnect={onConnect}
              onDelete={onDelete}
              nodesDraggable={canWrite}
              nodesConnectable={canWrite}
              deleteKeyCode={canWrite ? ["Backspace", "Delete"] : null}
              onlyRenderVisibleElements
              defaultViewport={viewport}
              minZoom={MIN_ZOOM}
              maxZoom={2}
              aria-label={`Board canvas: ${name}`}
            >
              <Background gap={24} />
              <Controls showInteractive={false} />
            </ReactFlow>
          )}
        </div>
        <aside aria-label="Selection" className="space-y-3 rounded-lg border border-slate-200 bg-white p-3 text-sm">
          {single ? (
            <Inspector
              key={`${single.id}-${single.version}`}
              item={single}
              canWrite={canWrite}
              canAnnotate={canAnnotate}
              write={write}
              run={run}
              setProblem={setProblem}
              reload={reload}
            />
          ) : (
            <p className="text-slate-600">
              {shown.length > 1
                ? `${shown.length} items selected. Drag one to move them together${shownNodes.length === 2 && canWrite ? ", or connect the two" : ""}.`
                : "Select an item (click, or Tab to it and press Enter) to edit or annotate it. Shift-drag selects several; arrow keys move the selection."}
            </p>
          )}
        </aside>
      </div>
    </div>
  );
}

function Toolbar({
  onAdd,
  onConnect,
  canConnect,
  boardId,
  onArranged,
  setProblem,
  run,
}: {
  onAdd: (args: Omit<ToolInput<"add_board_item">, "boardId">) => Promise<void>;
  onConnect: () => void;
  canConnect: boolean;
  boardId: string;
  onArranged: (page: BoardPage) => void;
  setProblem: (p: string | null) => void;
  run: <N extends ToolName>(name: N, args: ToolInput<N>) => Promise<ToolAnswer<ToolOutput<N>>>;
}) {
  const [creatives, setCreatives] = useState<Creative[] | null>(null);
  const [moreCreatives, setMoreCreatives] = useState(false);
  const [creativeQuery, setCreativeQuery] = useState("");
  const [creativeId, setCreativeId] = useState("");
  const [groupBy, setGroupBy] = useState<(typeof GROUPS)[number][0]>("label");
  const [sortBy, setSortBy] = useState<(typeof SORTS)[number][0]>("spend");
  const [busy, setBusy] = useState(false);

  // The picker's list is not needed for the board's first paint: it loads once the page is idle (or the
  // picker is reached first), so its server action does not compete with opening a large board.
  // The newest ready creatives, or those whose file name holds the search (the library can be far larger than one page).
  const creativesRequested = useRef(false);
  const latestSearch = useRef(0);
  const fetchCreatives = useCallback((search: string) => {
    const asked = ++latestSearch.current;
    void callBoardsTool("list_creatives", { limit: PICKER_PAGE, status: "ready", ...(search ? { search } : {}) }).then((a) => {
      if (asked !== latestSearch.current) return; // a later search has been sent
      setCreatives(a.ok ? a.result.creatives : []);
      setMoreCreatives(a.ok && a.result.nextCursor !== null);
    });
  }, []);
  const loadCreatives = useCallback(() => {
    if (creativesRequested.current) return;
    creativesRequested.current = true;
    fetchCreatives("");
  }, [fetchCreatives]);
  useEffect(() => {
    if (!creativesRequested.current) return;
    const timer = setTimeout(() => fetchCreatives(creativeQuery.trim()), 250);
    return () => clearTimeout(timer);
  }, [creativeQuery, fetchCreatives]);
  useEffect(() => {
    if (!("requestIdleCallback" in window)) {
      const timer = setTimeout(loadCreatives, 500);
      return () => clearTimeout(timer);
    }
    const handle = window.requestIdleCallback(loadCreatives, { timeout: 1500 });
    return () => window.cancelIdleCallback(handle);
  }, [loadCreatives]);

  const arrange = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const answer = await run("arrange_board", { boardId, groupBy, sortBy });
    setBusy(false);
    if (answer.ok) onArranged(answer.result);
    else setProblem(answer.message);
  };

  return (
    <div role="toolbar" aria-label="Board tools" className="flex flex-wrap items-end gap-2 rounded-lg border border-slate-200 bg-white p-2">
      <Button size="sm" variant="secondary" onClick={() => onAdd({ kind: "note", text: "" })}>
        Add note
      </Button>
      <Button size="sm" variant="secondary" onClick={() => onAdd({ kind: "frame", text: "Section" })}>
        Add frame
      </Button>
      <form
        className="flex items-end gap-1"
        onSubmit={(e) => {
          e.preventDefault();
          if (creativeId) void onAdd({ kind: "creative", creativeId });
        }}
      >
        <label className="sr-only" htmlFor="board-find-creative">
          Find a creative by file name
        </label>
        <input
          id="board-find-creative"
          type="search"
          value={creativeQuery}
          onChange={(e) => {
            loadCreatives();
            setCreativeQuery(e.target.value);
            setCreativeId("");
          }}
          placeholder="Find a creative"
          maxLength={200}
          className="h-8 w-36 rounded border border-slate-300 px-2 text-sm"
        />
        <label className="sr-only" htmlFor="board-add-creative">
          Creative to add
        </label>
        <Select
          id="board-add-creative"
          value={creativeId}
          onChange={(e) => setCreativeId(e.target.value)}
          onFocus={loadCreatives}
          onPointerEnter={loadCreatives}
          className="h-8 max-w-44 py-0 text-sm"
        >
          <option value="">
            {creatives === null
              ? "Loading creatives…"
              : creatives.length
                ? moreCreatives
                  ? `Choose (the newest ${PICKER_PAGE}; search for others)`
                  : "Choose a creative"
                : creativeQuery.trim()
                  ? "No match"
                  : "No ready creatives"}
          </option>
          {creatives?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.fileName}
            </option>
          ))}
        </Select>
        <Button size="sm" type="submit" disabled={!creativeId}>
          Add card
        </Button>
      </form>
      <Button size="sm" variant="secondary" onClick={onConnect} disabled={!canConnect} title="Select exactly two items first">
        Connect selected
      </Button>
      <form onSubmit={arrange} className="flex flex-wrap items-end gap-1">
        <SelectField id="board-group" label="Group by" value={groupBy} onChange={(e) => setGroupBy(e.target.value as typeof groupBy)} className="text-xs">
          {GROUPS.map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </SelectField>
        <SelectField id="board-sort" label="Sort by" value={sortBy} onChange={(e) => setSortBy(e.target.value as typeof sortBy)} className="text-xs">
          {SORTS.map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </SelectField>
        <Button size="sm" type="submit" disabled={busy}>
          Arrange
        </Button>
      </form>
    </div>
  );
}

function Inspector({
  item,
  canWrite,
  canAnnotate,
  write,
  run,
  setProblem,
  reload,
}: {
  item: BoardItem;
  canWrite: boolean;
  canAnnotate: boolean;
  write: <N extends ItemWrite>(id: string, name: N, args: WriteArgs<N>) => void;
  run: <N extends ToolName>(name: N, args: ToolInput<N>) => Promise<ToolAnswer<ToolOutput<N>>>;
  setProblem: (p: string | null) => void;
  reload: () => Promise<void>;
}) {
  const [text, setText] = useState(item.text ?? "");
  const [note, setNote] = useState("");
  const [pin, setPin] = useState<{ x: number; y: number } | null>(null);
  const [seconds, setSeconds] = useState("");
  const [sent, setSent] = useState(false);
  const card = item.card;

  const annotate = async (e: FormEvent) => {
    e.preventDefault();
    const answer = await run("annotate_board_card", {
      itemId: item.id,
      body: note,
      ...(pin ? { pin } : {}),
      ...(card?.kind === "video" && seconds ? { timeSeconds: Number(seconds) } : {}),
    });
    if (!answer.ok) return setProblem(answer.message);
    setNote("");
    setPin(null);
    setSent(true);
    await reload();
  };

  return (
    <div className="space-y-3">
      <h2 className="font-semibold text-slate-900">
        {item.kind === "creative" ? "Creative card" : item.kind === "note" ? "Note" : item.kind === "frame" ? "Frame" : "Connector"}
      </h2>
      {card && (
        <p>
          <Link href={`/dashboard/library/${card.id}`} className="text-indigo-700 underline">
            {card.fileName}
          </Link>
          <span className="block text-slate-600">
            {card.impressions.toLocaleString("en-US")} impressions · {card.conversions} conversions (30 days)
          </span>
        </p>
      )}
      {canWrite && (item.kind === "note" || item.kind === "frame" || item.kind === "connector") && (
        <form
          className="space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            write(item.id, "edit_board_item", { text });
          }}
        >
          <label htmlFor="board-item-text" className="block font-medium text-slate-800">
            {item.kind === "frame" ? "Title" : item.kind === "note" ? "Text" : "Label"}
          </label>
          <TextArea id="board-item-text" value={text} onChange={(e) => setText(e.target.value)} rows={item.kind === "note" ? 4 : 1} maxLength={5000} />
          {item.kind === "note" && (
            <SelectField
              id="board-item-color"
              label="Colour"
              value={item.color ?? "yellow"}
              onChange={(e) => write(item.id, "edit_board_item", { color: e.target.value as "yellow" })}
            >
              {["yellow", "pink", "blue", "green", "gray"].map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </SelectField>
          )}
          <Button size="sm" type="submit">
            Save
          </Button>
        </form>
      )}
      {canAnnotate && card && (
        <form className="space-y-2" onSubmit={annotate}>
          <label htmlFor="board-annotation" className="block font-medium text-slate-800">
            Annotate (becomes a review comment)
          </label>
          {card.kind === "image" && card.mediaPath && (
            <div>
              <button
                type="button"
                className="relative block w-full overflow-hidden rounded border border-slate-200"
                aria-label={
                  pin
                    ? `Pinned at ${Math.round(pin.x * 100)}%, ${Math.round(pin.y * 100)}%; click to move the pin`
                    : "Click the picture to pin the comment to a spot (optional)"
                }
                onClick={(e) => {
                  const r = e.currentTarget.getBoundingClientRect();
                  setPin({ x: Math.min(1, Math.max(0, (e.clientX - r.left) / r.width)), y: Math.min(1, Math.max(0, (e.clientY - r.top) / r.height)) });
                }}
              >
                <img src={card.thumbnails?.large ?? card.mediaPath} alt="" className="block w-full" />
                {pin && (
                  <span
                    aria-hidden
                    className="absolute size-3 -translate-x-1/2 -translate-y-1/2 rounded-full bg-indigo-600 ring-2 ring-white"
                    style={{ left: `${pin.x * 100}%`, top: `${pin.y * 100}%` }}
                  />
                )}
              </button>
            </div>
          )}
          {card.kind === "video" && (
            <div>
              <label htmlFor="board-annotation-time" className="block text-slate-800">
                At second (optional)
              </label>
              <input
                id="board-annotation-time"
                type="number"
                min={0}
                step={0.1}
                value={seconds}
                onChange={(e) => setSeconds(e.target.value)}
                className="h-8 w-24 rounded border border-slate-300 px-2"
              />
            </div>
          )}
          <TextArea id="board-annotation" value={note} onChange={(e) => setNote(e.target.value)} rows={3} maxLength={5000} required />
          <Button size="sm" type="submit" disabled={!note.trim()}>
            Add comment
          </Button>
          {sent && (
            <p className="text-green-800" role="status">
              Comment added to the creative&apos;s review.
            </p>
          )}
        </form>
      )}
      {canWrite && item.kind !== "connector" && (
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="secondary"
            onClick={() => write(item.id, "move_board_item", (current) => ({ x: current.x, y: current.y, layer: "front" as const }))}
          >
            Bring to front
          </Button>
          <Button
            size="sm"
            variant="secondary"
            onClick={() => write(item.id, "move_board_item", (current) => ({ x: current.x, y: current.y, layer: "back" as const }))}
          >
            Send to back
          </Button>
          <Button
            size="sm"
            variant="danger-ghost"
            onClick={async () => {
              const answer = await run("remove_board_item", { id: item.id, version: item.version });
              if (!answer.ok) setProblem(answer.code === "conflict" ? "Someone else changed that item just now, so it was not removed." : answer.message);
              await reload();
            }}
          >
            Remove
          </Button>
        </div>
      )}
    </div>
  );
}
