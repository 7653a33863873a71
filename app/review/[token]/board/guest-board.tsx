"use client";
import "@xyflow/react/dist/style.css";
import { Background, Controls, ReactFlow, ReactFlowProvider, type NodeChange } from "@xyflow/react";
import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { NODE_TYPES, toFlow, type BoardItem, type ItemNode } from "@/components/boards/board-nodes";
import { useFittedViewport } from "@/components/boards/fitted-viewport";
import { ReviewStatusBadge } from "@/components/review/status-badge";
import type { GuestBoard } from "@/lib/boards/share";
import type { GuestCreative } from "@/lib/review/guest";

const GUEST_KEY = "adloom-review-guest";
const MIN_ZOOM = 0.05;

/** The shared board for a guest: pan, zoom and select; nothing moves. Selecting a card shows its threads and a comment box. */
export function GuestBoardView({ token, view }: { token: string; view: GuestBoard }) {
  const [creatives, setCreatives] = useState(() => new Map(view.creatives.map((c) => [c.id, c])));
  const [selected, setSelected] = useState<string | null>(null);
  const flow = useMemo(
    () =>
      toFlow(view.items as BoardItem[], {
        editable: false,
        imageUrl: (i) => (i.creativeId && creatives.get(i.creativeId)?.kind === "image" ? creatives.get(i.creativeId)!.mediaUrl : null),
      }),
    [view.items, creatives],
  );
  const [nodes, setNodes] = useState<ItemNode[]>(flow.nodes);
  useEffect(() => setNodes(flow.nodes), [flow.nodes]);
  const onNodesChange = (changes: NodeChange<ItemNode>[]) => {
    for (const c of changes) if (c.type === "select" && c.selected) setSelected(c.id);
    setNodes((nds) =>
      nds.map((n) => {
        const change = changes.find((c) => c.type === "select" && c.id === n.id);
        return change && change.type === "select" ? { ...n, selected: change.selected } : n;
      }),
    );
  };
  const canvas = useRef<HTMLDivElement>(null);
  const viewport = useFittedViewport(canvas, flow.nodes, { min: MIN_ZOOM, max: 1 });
  const item = selected ? view.items.find((i) => i.id === selected) : undefined;
  const creative = item?.creativeId ? creatives.get(item.creativeId) : undefined;

  return (
    <main className="mx-auto max-w-7xl px-3 py-4 sm:px-6">
      <header className="mb-3">
        <p className="text-xs font-medium uppercase tracking-wide text-slate-600">Board review · read-only</p>
        <h1 className="text-2xl font-semibold text-slate-900">{view.name}</h1>
        <p className="text-sm text-slate-600">
          Select a card to read its comments{view.permissions.comment ? " and add yours" : ""}.{" "}
          <a href={`/review/${token}`} className="text-indigo-700 underline">
            List view
          </a>
        </p>
      </header>
      <div className="grid gap-3 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div ref={canvas} className="h-[calc(100dvh-12rem)] min-h-[22rem] overflow-hidden rounded-lg border border-slate-200 bg-white">
          <ReactFlowProvider>
            {viewport && (
              <ReactFlow
                nodes={nodes}
                edges={flow.edges}
                nodeTypes={NODE_TYPES}
                onNodesChange={onNodesChange}
                nodesDraggable={false}
                nodesConnectable={false}
                deleteKeyCode={null}
                onlyRenderVisibleElements
                defaultViewport={viewport}
                minZoom={MIN_ZOOM}
                aria-label={`Shared board: ${view.name}`}
              >
                <Background gap={24} />
                <Controls showInteractive={false} />
              </ReactFlow>
            )}
          </ReactFlowProvider>
        </div>
        <aside aria-label="Selected card" className="space-y-3 rounded-lg border border-slate-200 bg-white p-3 text-sm">
          {creative ? (
            <CardComments
              key={creative.id}
              token={token}
              creative={creative}
              canComment={view.permissions.comment}
              onChange={(c) => setCreatives((m) => new Map(m).set(c.id, c))}
            />
          ) : (
            <p className="text-slate-600">
              {item ? "Nothing to comment on here: select a creative card." : "Select a creative card (click or tap it, or Tab to it and press Enter)."}
            </p>
          )}
        </aside>
      </div>
    </main>
  );
}

function CardComments({
  token,
  creative,
  canComment,
  onChange,
}: {
  token: string;
  creative: GuestCreative;
  canComment: boolean;
  onChange: (c: GuestCreative) => void;
}) {
  const [name, setName] = useState("");
  const [body, setBody] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    try {
      const saved = JSON.parse(localStorage.getItem(GUEST_KEY) ?? "null") as { name?: string } | null;
      if (saved?.name) setName(saved.name);
    } catch {
      /* nothing remembered */
    }
  }, []);

  const send = async (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    const res = await fetch(`/api/review/${token}/comments`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ creativeId: creative.id, name: name.trim(), body }),
    });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) return setProblem(data?.error?.message ?? `The server answered ${res.status}`);
    localStorage.setItem(GUEST_KEY, JSON.stringify({ name: name.trim(), email: "" }));
    setBody("");
    onChange(data.creative as GuestCreative);
  };

  return (
    <div className="space-y-3">
      <h2 className="break-words font-semibold text-slate-900">{creative.fileName}</h2>
      <ReviewStatusBadge status={creative.status} />
      <ul className="space-y-2" aria-label="Comments">
        {creative.threads.map((t) => (
          <li key={t.id} className="rounded border border-slate-200 p-2">
            <p className="text-xs font-medium text-slate-700">
              {t.authorName}
              {t.guest ? " (guest)" : ""}
            </p>
            <p className="whitespace-pre-wrap text-slate-900">{t.body}</p>
            {t.replies.map((r) => (
              <p key={r.id} className="mt-1 border-l-2 border-slate-200 pl-2 text-slate-800">
                <span className="font-medium">{r.authorName}:</span> {r.body}
              </p>
            ))}
          </li>
        ))}
        {!creative.threads.length && <li className="text-slate-600">No comments yet.</li>}
      </ul>
      {canComment && (
        <form onSubmit={send} className="space-y-2">
          <label htmlFor="board-guest-name" className="block font-medium text-slate-800">
            Your name
          </label>
          <input
            id="board-guest-name"
            required
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.target.value)}
            className="w-full rounded border border-slate-300 px-2 py-1.5"
          />
          <label htmlFor="board-guest-comment" className="block font-medium text-slate-800">
            Comment
          </label>
          <textarea
            id="board-guest-comment"
            required
            maxLength={5000}
            rows={3}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            className="w-full rounded border border-slate-300 px-2 py-1.5"
          />
          <button
            type="submit"
            className="rounded bg-indigo-600 px-3 py-1.5 font-medium text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          >
            Comment
          </button>
          {problem && (
            <p role="alert" className="text-rose-700">
              {problem}
            </p>
          )}
        </form>
      )}
    </div>
  );
}
