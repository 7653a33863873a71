"use client";
import { forwardRef, useEffect, useState } from "react";
import { formatTimeCode } from "./time-code";
import type { ThreadView } from "./types";

/**
 * A video with the comment marks of its threads on a timeline under it; clicking a mark seeks.
 * The parent keeps the ref to read the current time (new comments) and to seek (time codes in threads).
 */
export const VideoWithMarks = forwardRef<
  HTMLVideoElement,
  { src: string; title: string; durationSeconds: number | null; threads: ThreadView[]; preload?: "none" | "metadata"; poster?: string | null }
>(function VideoWithMarks({ src, title, durationSeconds, threads, preload = "metadata", poster }, ref) {
  const [duration, setDuration] = useState<number | null>(durationSeconds);
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  useEffect(() => {
    if (!video) return;
    const update = () => Number.isFinite(video.duration) && video.duration > 0 && setDuration(video.duration);
    video.addEventListener("loadedmetadata", update);
    return () => video.removeEventListener("loadedmetadata", update);
  }, [video]);
  const marks = threads.filter((t) => t.timeSeconds !== null);
  return (
    <div>
      <video
        ref={(el) => {
          setVideo(el);
          if (typeof ref === "function") ref(el);
          else if (ref) ref.current = el;
        }}
        src={src}
        controls
        playsInline
        preload={preload}
        poster={poster ?? undefined}
        aria-label={title}
        className="aspect-video w-full bg-slate-900"
      />
      <div className="relative mt-2 h-4 rounded bg-slate-200" role="group" aria-label="Comment marks on the timeline" data-testid="timeline">
        {duration
          ? marks.map((t, i) => (
              <button
                key={t.id}
                type="button"
                title={`${formatTimeCode(t.timeSeconds!)}: ${t.body}`}
                aria-label={`Comment ${i + 1} at ${formatTimeCode(t.timeSeconds!)}`}
                data-testid="timeline-mark"
                onClick={() => video && (video.currentTime = t.timeSeconds!)}
                className={`absolute top-0 h-4 w-2 -translate-x-1/2 rounded ${t.resolved ? "bg-slate-400" : "bg-amber-500"}`}
                style={{ left: `${Math.min(100, (t.timeSeconds! / duration) * 100)}%` }}
              />
            ))
          : null}
      </div>
    </div>
  );
});
