"use client";
import type { ThreadView } from "./types";

/** An image with the numbered pins of its threads; clicking the image (when allowed) places a new pin. */
export function ImageWithPins({
  src,
  alt,
  width,
  height,
  threads,
  pending,
  onPick,
  eager = false,
}: {
  src: string;
  alt: string;
  width: number | null;
  height: number | null;
  threads: ThreadView[];
  pending?: { x: number; y: number } | null;
  onPick?: (pin: { x: number; y: number }) => void;
  eager?: boolean;
}) {
  const pinned = threads.filter((t) => t.pin);
  return (
    <div className="relative mx-auto w-fit max-w-full">
      {/* signed or session media, not optimizable by next/image; a click places a pin, and a comment without a pin needs no pointer */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: pins are a pointer convenience; the comment form works from the keyboard without one */}
      <img
        src={src}
        alt={alt}
        width={width ?? undefined}
        height={height ?? undefined}
        loading={eager ? "eager" : "lazy"}
        fetchPriority={eager ? "high" : "auto"}
        decoding="async"
        className={`block h-auto max-h-[70vh] w-auto max-w-full ${onPick ? "cursor-crosshair" : ""}`}
        onClick={(e) => {
          if (!onPick) return;
          const box = e.currentTarget.getBoundingClientRect();
          onPick({ x: Math.min(1, Math.max(0, (e.clientX - box.left) / box.width)), y: Math.min(1, Math.max(0, (e.clientY - box.top) / box.height)) });
        }}
      />
      {pinned.map((t, i) => (
        <span
          key={t.id}
          title={t.body}
          className={`pointer-events-none absolute flex size-6 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full text-xs font-semibold text-white ring-2 ring-white ${t.resolved ? "bg-slate-500" : "bg-amber-700"}`}
          style={{ left: `${t.pin!.x * 100}%`, top: `${t.pin!.y * 100}%` }}
        >
          {i + 1}
        </span>
      ))}
      {pending && (
        <span
          className="pointer-events-none absolute size-6 -translate-x-1/2 -translate-y-1/2 rounded-full bg-indigo-600 ring-2 ring-white"
          style={{ left: `${pending.x * 100}%`, top: `${pending.y * 100}%` }}
          aria-hidden
        />
      )}
    </div>
  );
}
