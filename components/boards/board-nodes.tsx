"use client";
import {
  Handle,
  NodeResizer,
  Position,
  useStore,
  type Edge,
  type Node,
  type NodeHandle,
  type NodeProps,
  type NodeTypes,
  type ReactFlowState,
} from "@xyflow/react";
import { memo } from "react";
import { currencyDigits } from "@/lib/money";
import type { CanvasCard, CanvasItem } from "@/lib/dashboard/boards-page";

/** What a canvas item reads: the get_board item without the fields the canvas does not show. */
export type BoardItem = CanvasItem;
export type BoardCard = CanvasCard;

export interface ItemNodeData extends Record<string, unknown> {
  item: BoardItem;
  editable: boolean;
  /** Where the card's picture comes from (the dashboard's media path, or a guest's signed URL). */
  imageUrl: string | null;
  onResizeEnd?: (id: string, box: { x: number; y: number; width: number; height: number }) => void;
}
export type ItemNode = Node<ItemNodeData>;

const NOTE_COLORS: Record<string, string> = {
  yellow: "bg-amber-100 border-amber-300",
  pink: "bg-pink-100 border-pink-300",
  blue: "bg-sky-100 border-sky-300",
  green: "bg-emerald-100 border-emerald-300",
  gray: "bg-slate-100 border-slate-300",
};

const LABEL_TONE: Record<string, string> = {
  winner: "bg-emerald-100 text-emerald-900",
  loser: "bg-rose-100 text-rose-900",
  fatigued: "bg-amber-100 text-amber-900",
  neutral: "bg-slate-100 text-slate-800",
};
const STATUS_TEXT: Record<string, string> = { none: "Not reviewed", in_review: "In review", changes_requested: "Changes requested", approved: "Approved" };

/** Major units with the card's currency's digits (whole yen, cents for dollars); the figure's title names the currency. */
const money = (n: number | null, currency: string) => {
  if (n === null) return "–";
  const digits = currencyDigits(currency);
  return n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
};

/**
 * Below this zoom a card is a few dozen pixels wide and its text unreadable: it renders as a tile (label
 * colour, thread count) without its picture, so an overview of hundreds of cards builds little DOM and
 * fetches no pictures. Zooming in brings the full card back.
 */
export const CARD_DETAIL_ZOOM = 0.3;
const zoomedOut = (s: ReactFlowState) => s.transform[2] < CARD_DETAIL_ZOOM;

// Only the selected item mounts its resize handles (eight controls a node otherwise builds for nothing).
function Resizer({ data, id, selected, min }: { data: ItemNodeData; id: string; selected: boolean; min: { w: number; h: number } }) {
  if (!data.editable || !selected) return null;
  return (
    <NodeResizer
      isVisible
      minWidth={min.w}
      minHeight={min.h}
      color="#4f46e5"
      onResizeEnd={(_e, p) => data.onResizeEnd?.(id, { x: p.x, y: p.y, width: p.width, height: p.height })}
    />
  );
}

/**
 * The connection handles, only when the item is readable: below CARD_DETAIL_ZOOM a 6 px handle is under 2
 * screen pixels, too small to drag from, and each handle is a component subscribed to React Flow's store
 * (two per item, ~550 for a fitted 500-card board). Edges do not need them: their ends come from the
 * positions every node carries (`handles` in toFlow).
 */
function Handles({ editable, far }: { editable: boolean; far: boolean }) {
  if (far) return null;
  return (
    <>
      <Handle type="target" position={Position.Left} isConnectable={editable} className={editable ? "" : "!opacity-0"} />
      <Handle type="source" position={Position.Right} isConnectable={editable} className={editable ? "" : "!opacity-0"} />
    </>
  );
}

export function CardBody({ card, imageUrl }: { card: BoardCard; imageUrl: string | null }) {
  return (
    <>
      <div className="relative min-h-0 flex-1 bg-slate-100">
        {imageUrl && (card.kind === "image" || card.thumbnails) ? (
          // Lazy, so a board of hundreds of cards fetches only the pictures in view.
          <img src={imageUrl} alt="" loading="lazy" decoding="async" draggable={false} className="h-full w-full object-contain" />
        ) : (
          <span className="grid h-full place-items-center text-sm text-slate-600">
            {card.kind === "video" ? `Video${card.durationSeconds ? ` · ${card.durationSeconds.toFixed(1)} s` : ""}` : card.status}
          </span>
        )}
        {card.openThreads > 0 && (
          <span className="absolute right-1 top-1 rounded-full bg-indigo-600 px-2 text-xs font-medium text-white" title="Open comment threads">
            {card.openThreads}
          </span>
        )}
      </div>
      <div className="space-y-1 border-t border-slate-200 p-2">
        <p className="truncate text-xs font-medium text-slate-900" title={card.fileName}>
          {card.fileName}
        </p>
        <p className="flex flex-wrap gap-1 text-[11px]">
          <span className={`rounded px-1.5 ${LABEL_TONE[card.label] ?? LABEL_TONE.neutral}`}>{card.label}</span>
          <span className="rounded bg-slate-100 px-1.5 text-slate-800">{STATUS_TEXT[card.reviewStatus]}</span>
        </p>
        <dl className="grid grid-cols-3 gap-1 text-[11px] text-slate-700">
          <div>
            <dt className="text-slate-600">Spend {card.currency}</dt>
            <dd className="font-medium tabular-nums text-slate-900">{money(card.spend, card.currency)}</dd>
          </div>
          <div>
            <dt className="text-slate-600">CPA {card.currency}</dt>
            <dd className="font-medium tabular-nums text-slate-900">{money(card.cpa, card.currency)}</dd>
          </div>
          <div>
            <dt className="text-slate-600">ROAS</dt>
            <dd className="font-medium tabular-nums text-slate-900">{card.roas === null ? "–" : card.roas.toFixed(2)}</dd>
          </div>
        </dl>
      </div>
    </>
  );
}

/** A card seen from far away: the label's colour and the open-thread count; no picture, no figures. */
function CardTile({ card }: { card: BoardCard }) {
  return (
    <div className={`relative h-full w-full ${LABEL_TONE[card.label] ?? LABEL_TONE.neutral}`}>
      {card.openThreads > 0 && <span className="absolute right-[6%] top-[5%] size-[18%] rounded-full bg-indigo-600" />}
    </div>
  );
}

const CreativeNode = memo(function CreativeNode({ id, data, selected }: NodeProps<ItemNode>) {
  const card = data.item.card;
  const far = useStore(zoomedOut);
  return (
    <div
      className={`flex h-full w-full flex-col overflow-hidden rounded-lg border bg-white shadow-sm ${selected ? "border-indigo-600 ring-2 ring-indigo-600" : "border-slate-300"}`}
    >
      <Resizer data={data} id={id} selected={selected} min={{ w: 140, h: 160 }} />
      <Handles editable={data.editable} far={far} />
      {card && far ? (
        <CardTile card={card} />
      ) : card ? (
        <CardBody card={card} imageUrl={data.imageUrl} />
      ) : (
        <span className="grid h-full place-items-center p-2 text-center text-sm text-slate-600">Creative not available</span>
      )}
    </div>
  );
});

const NoteNode = memo(function NoteNode({ id, data, selected }: NodeProps<ItemNode>) {
  const far = useStore(zoomedOut);
  return (
    <div
      className={`h-full w-full overflow-hidden rounded-md border p-3 shadow-sm ${NOTE_COLORS[data.item.color ?? "yellow"] ?? NOTE_COLORS.yellow} ${selected ? "ring-2 ring-indigo-600" : ""}`}
    >
      <Resizer data={data} id={id} selected={selected} min={{ w: 80, h: 60 }} />
      <Handles editable={data.editable} far={far} />
      <p className="whitespace-pre-wrap break-words text-sm text-slate-900">{data.item.text || <span className="text-slate-600">Empty note</span>}</p>
    </div>
  );
});

const FrameNode = memo(function FrameNode({ id, data, selected }: NodeProps<ItemNode>) {
  const far = useStore(zoomedOut);
  return (
    <div className={`h-full w-full rounded-xl border-2 border-dashed bg-slate-50/70 ${selected ? "border-indigo-600" : "border-slate-300"}`}>
      <Resizer data={data} id={id} selected={selected} min={{ w: 120, h: 80 }} />
      <Handles editable={data.editable} far={far} />
      <p className="truncate px-4 pt-3 text-base font-semibold text-slate-800">{data.item.text || "Frame"}</p>
    </div>
  );
});

export const NODE_TYPES: NodeTypes = { creative: CreativeNode, note: NoteNode, frame: FrameNode };

export function itemLabel(item: BoardItem): string {
  if (item.kind === "creative") return `Creative card: ${item.card?.fileName ?? "not available"}`;
  if (item.kind === "note") return `Note: ${item.text?.slice(0, 60) || "empty"}`;
  return `Frame: ${item.text || "untitled"}`;
}

/** Where the Handles above sit (React Flow's default 6 px handle centred on the left and right edges), in canvas units. */
function handlesOf(item: BoardItem): NodeHandle[] {
  const y = item.height / 2 - HANDLE_SIZE / 2;
  return [
    { type: "target", position: Position.Left, x: -HANDLE_SIZE / 2, y, width: HANDLE_SIZE, height: HANDLE_SIZE },
    { type: "source", position: Position.Right, x: item.width - HANDLE_SIZE / 2, y, width: HANDLE_SIZE, height: HANDLE_SIZE },
  ];
}
const HANDLE_SIZE = 6;

/** React Flow nodes and edges of the board's items (connectors become edges); the stack order becomes zIndex. */
export function toFlow(
  items: BoardItem[],
  options: { editable: boolean; imageUrl: (item: BoardItem) => string | null; selected?: ReadonlySet<string>; onResizeEnd?: ItemNodeData["onResizeEnd"] },
): { nodes: ItemNode[]; edges: Edge[] } {
  const nodes: ItemNode[] = [];
  const edges: Edge[] = [];
  items.forEach((item, index) => {
    if (item.kind === "connector") {
      edges.push({
        id: item.id,
        source: item.fromItemId!,
        target: item.toItemId!,
        label: item.text || undefined,
        selected: options.selected?.has(item.id) ?? false,
        deletable: options.editable,
        ariaLabel: "Connector",
      });
      return;
    }
    nodes.push({
      id: item.id,
      type: item.kind,
      position: { x: item.x, y: item.y },
      width: item.width,
      height: item.height,
      // Known size and handles: React Flow would otherwise render every node once, wherever it is, to
      // measure them (500 full cards for a 500-card board) before rendering only those in view.
      measured: { width: item.width, height: item.height },
      handles: handlesOf(item),
      zIndex: index,
      selected: options.selected?.has(item.id) ?? false,
      draggable: options.editable,
      deletable: options.editable,
      ariaLabel: itemLabel(item),
      data: { item, editable: options.editable, imageUrl: options.imageUrl(item), onResizeEnd: options.onResizeEnd },
    });
  });
  return { nodes, edges };
}
