"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { ImageWithPins } from "@/components/review/image-with-pins";
import { MentionTextarea, type Mentionable } from "@/components/review/mention-textarea";
import { ReviewStatusBadge } from "@/components/review/status-badge";
import { ThreadList } from "@/components/review/thread-list";
import { formatTimeCode, toTimeSeconds } from "@/components/review/time-code";
import type { ThreadView } from "@/components/review/types";
import { VideoWithMarks } from "@/components/review/video-with-marks";
import { Card } from "@/components/ui/misc";
import type { ActionResult } from "@/lib/dashboard/action-result";
import type { ReviewState, Version } from "@/lib/review/schemas";
import {
  addCommentAction,
  deleteCommentAction,
  loadThreadsAction,
  replyAction,
  requestReviewAction,
  resolveAction,
  reviewStateAction,
  setStatusAction,
} from "./review-actions";
import { PIN_SLOT_ID } from "./pin-slot";
import { ShareForm } from "./share-form";
import { VersionUpload } from "./version-upload";

interface Props {
  creativeId: string;
  kind: "image" | "video";
  fileName: string;
  initialReview: ReviewState;
  initialThreads: ThreadView[];
  versions: Version[];
  members: { userId: string; name: string }[];
  /** Everyone who can be @mentioned in a comment. */
  mentionable: Mentionable[];
  userId: string;
  can: { comment: boolean; approve: boolean; share: boolean; version: boolean };
}

/** The page's own video (the current version), which time codes seek when the current version is shown. */
const pageVideo = () => document.querySelector<HTMLVideoElement>('[data-testid="creative-video"]');

/** Review on the creative page: status and decisions, reviewers, comment threads, versions and compare. */
export function ReviewPanel({ creativeId, kind, fileName, initialReview, initialThreads, versions, members, mentionable, userId, can }: Props) {
  const router = useRouter();
  const current = versions.find((v) => v.current)?.number ?? 1;
  const [review, setReview] = useState(initialReview);
  const [threads, setThreads] = useState(initialThreads);
  const [shown, setShown] = useState(current);
  const [compare, setCompare] = useState<[number, number] | null>(null);
  const [body, setBody] = useState("");
  const [atTime, setAtTime] = useState(true);
  const [pin, setPin] = useState<{ x: number; y: number } | null>(null);
  const [reviewer, setReviewer] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const olderVideo = useRef<HTMLVideoElement>(null);
  // The page's preview box, where an image's pin area goes (found after mount: it is server-rendered).
  const [pinSlot, setPinSlot] = useState<HTMLElement | null>(null);
  // A new version (uploaded here, or seen on a refresh) is the one shown, with its comments.
  const [seenCurrent, setSeenCurrent] = useState(current);
  if (seenCurrent !== current) {
    setSeenCurrent(current);
    setShown(current);
    setThreads([]);
  }
  useEffect(() => setPinSlot(document.getElementById(PIN_SLOT_ID)), []);
  const shownVersion = versions.find((v) => v.number === shown) ?? versions[0]!;
  const video = () => (shown === current ? pageVideo() : olderVideo.current);

  const run = async <T,>(fn: () => Promise<ActionResult<T>>): Promise<T | null> => {
    setBusy(true);
    try {
      const res = await fn();
      if (!res.ok) {
        setError(res.error);
        return null;
      }
      setError(null);
      return res.data;
    } finally {
      setBusy(false);
    }
  };
  const reloadThreads = async (version = shown) => {
    const data = await run(() => loadThreadsAction(creativeId, version));
    if (data) setThreads(data.threads);
  };
  const reloadReview = async () => {
    const data = await run(() => reviewStateAction(creativeId));
    if (data) setReview(data.review);
  };
  const showVersion = async (n: number) => {
    setShown(n);
    setPin(null);
    await reloadThreads(n);
  };
  const seek = (t: number) => {
    const v = video();
    if (v) v.currentTime = t;
  };

  return (
    <Card className="space-y-5 p-4">
      <section aria-labelledby="review-heading" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="review-heading" className="text-lg font-semibold text-slate-900">
            Review
          </h2>
          <ReviewStatusBadge status={review.status} />
        </div>
        {review.requestedReviewers.length > 0 && <p className="text-sm text-slate-700">Reviewers: {review.requestedReviewers.map((r) => r.name).join(", ")}</p>}
        {(!can.approve || !can.comment || !can.share) && (
          <ul data-testid="review-disabled-reasons" className="space-y-1 text-sm text-slate-700">
            {!can.approve && <li id="approve-reason">Approving and asking for changes need &quot;review.approve&quot; (editors and above).</li>}
            {!can.comment && <li id="comment-reason">Commenting and asking teammates to review need &quot;review.comment&quot; (editors and above).</li>}
            {!can.share && <li id="share-reason">Sharing review links with guests needs &quot;review.share&quot; (editors and above).</li>}
          </ul>
        )}
        {
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              aria-describedby={can.approve ? undefined : "approve-reason"}
              disabled={!can.approve || busy || review.status === "approved"}
              className="rounded bg-emerald-700 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50"
              onClick={async () => {
                const d = await run(() => setStatusAction(creativeId, "approved"));
                if (d) setReview(d.review), router.refresh(); // the server-rendered review history below
              }}
            >
              Approve
            </button>
            <button
              type="button"
              aria-describedby={can.approve ? undefined : "approve-reason"}
              disabled={!can.approve || busy || review.status === "changes_requested"}
              className="rounded bg-amber-700 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50"
              onClick={async () => {
                const d = await run(() => setStatusAction(creativeId, "changes_requested"));
                if (d) setReview(d.review), router.refresh(); // the server-rendered review history below
              }}
            >
              Request changes
            </button>
          </div>
        }
        {can.comment && members.length > 0 && (
          <form
            className="flex flex-wrap items-end gap-2"
            onSubmit={async (e) => {
              e.preventDefault();
              if (reviewer && (await run(() => requestReviewAction(creativeId, [reviewer])))) await reloadReview();
            }}
          >
            <div className="min-w-0 flex-1">
              <label htmlFor="reviewer" className="block text-sm font-medium text-slate-800">
                Ask a teammate to review
              </label>
              <select
                id="reviewer"
                value={reviewer}
                onChange={(e) => setReviewer(e.target.value)}
                className="w-full rounded border border-slate-300 px-2 py-1.5 text-sm"
              >
                <option value="">Choose…</option>
                {members.map((m) => (
                  <option key={m.userId} value={m.userId}>
                    {m.name}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" disabled={busy || !reviewer} className="rounded bg-slate-800 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50">
              Request review
            </button>
          </form>
        )}
      </section>

      <section aria-labelledby="versions-heading" className="space-y-2">
        <h3 id="versions-heading" className="text-sm font-semibold text-slate-900">
          Versions
        </h3>
        <div className="flex flex-wrap gap-2" role="group" aria-label="Version switcher">
          {versions.map((v) => (
            <button
              key={v.number}
              type="button"
              aria-pressed={v.number === shown}
              onClick={() => showVersion(v.number)}
              className={`rounded border px-2 py-1 text-sm ${v.number === shown ? "border-indigo-600 bg-indigo-50 text-indigo-900" : "border-slate-300 text-slate-800"}`}
            >
              v{v.number}
              {v.current ? " (current)" : ""}
            </button>
          ))}
          {versions.length > 1 && (
            <button
              type="button"
              className="rounded border border-slate-300 px-2 py-1 text-sm text-slate-800"
              onClick={() => setCompare(compare ? null : [Math.max(1, current - 1), current])}
            >
              {compare ? "Close compare" : "Compare"}
            </button>
          )}
        </div>
        <VersionUpload creativeId={creativeId} kind={kind} allowed={can.version} onUploaded={() => router.refresh()} />
        {compare && <CompareVersions versions={versions} pair={compare} onChange={setCompare} fileName={fileName} />}
      </section>

      {kind === "image" ? (
        (() => {
          const pins = (
            <div data-testid="pin-area" className="contents">
              <ImageWithPins
                src={shownVersion.thumbnails?.large ?? shownVersion.mediaPath}
                alt={`${fileName}, version ${shown}`}
                width={shownVersion.width}
                height={shownVersion.height}
                threads={threads}
                pending={pin}
                onPick={can.comment ? setPin : undefined}
                eager
              />
            </div>
          );
          return pinSlot ? (
            <>
              {createPortal(pins, pinSlot)}
              <p className="text-sm text-slate-600">
                Showing v{shown} in the preview above{can.comment ? "; click it to pin a comment" : ""}.
              </p>
            </>
          ) : (
            pins
          );
        })()
      ) : shown === current ? (
        <TimelineMarks threads={threads} durationSeconds={null} onSeek={seek} />
      ) : (
        <VideoWithMarks ref={olderVideo} src={shownVersion.mediaPath} title={`${fileName}, version ${shown}`} durationSeconds={null} threads={threads} />
      )}

      <section aria-labelledby="comments-heading" className="space-y-3">
        <h3 id="comments-heading" className="text-sm font-semibold text-slate-900">
          Comments on v{shown}
        </h3>
        {can.comment && shown === current && (
          <form
            className="space-y-2"
            onSubmit={async (e) => {
              e.preventDefault();
              if (!body.trim()) return;
              const v = video();
              const timeSeconds = kind === "video" && atTime && v ? toTimeSeconds(v.currentTime) : null;
              if (await run(() => addCommentAction({ creativeId, body, timeSeconds, pin: kind === "image" ? pin : null }))) {
                setBody("");
                setPin(null);
                await reloadThreads();
              }
            }}
          >
            <label htmlFor="new-comment" className="sr-only">
              New comment
            </label>
            <MentionTextarea
              id="new-comment"
              rows={2}
              value={body}
              maxLength={5000}
              onValueChange={setBody}
              members={mentionable}
              placeholder="Add a comment… (@ to mention)"
              className="w-full rounded border border-slate-300 px-2 py-1.5 text-sm"
            />
            <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
              {kind === "video" ? (
                <label className="flex items-center gap-2 text-slate-800">
                  <input type="checkbox" checked={atTime} onChange={(e) => setAtTime(e.target.checked)} /> At the video&apos;s current time
                </label>
              ) : (
                <span className="text-slate-600">{pin ? "Pinned" : "Click the image to pin"}</span>
              )}
              <button type="submit" disabled={busy} className="rounded bg-indigo-600 px-3 py-1.5 font-medium text-white disabled:opacity-50">
                Comment
              </button>
            </div>
          </form>
        )}
        {error && (
          <p role="alert" className="text-sm text-rose-700">
            {error}
          </p>
        )}
        <ThreadList
          threads={threads}
          onSeek={seek}
          onReply={can.comment ? async (id, text) => void ((await run(() => replyAction(id, text))) && (await reloadThreads())) : undefined}
          onResolve={can.comment ? async (id, resolved) => void ((await run(() => resolveAction(id, resolved))) && (await reloadThreads())) : undefined}
          onDelete={can.comment ? async (id) => void ((await run(() => deleteCommentAction(id))) && (await reloadThreads())) : undefined}
          canDelete={(author) => author === userId}
        />
      </section>

      {can.share && (
        <section aria-labelledby="share-heading" className="space-y-2 border-t border-slate-200 pt-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 id="share-heading" className="text-sm font-semibold text-slate-900">
              Share for review
            </h3>
            <Link href="/dashboard/review-links" className="text-sm text-indigo-700 underline">
              Manage review links
            </Link>
          </div>
          <ShareForm creativeId={creativeId} fileName={fileName} />
        </section>
      )}
    </Card>
  );
}

/** Marks for the page's video: a bar under the panel heading whose marks seek it. */
function TimelineMarks({ threads, onSeek }: { threads: ThreadView[]; durationSeconds: number | null; onSeek: (t: number) => void }) {
  const marks = threads.filter((t) => t.timeSeconds !== null);
  if (!marks.length) return null;
  return (
    <div role="group" aria-label="Comment time codes" className="flex flex-wrap gap-1">
      {marks.map((t) => (
        <button key={t.id} type="button" onClick={() => onSeek(t.timeSeconds!)} className="rounded bg-amber-100 px-1.5 font-mono text-xs text-amber-900">
          {formatTimeCode(t.timeSeconds!)}
        </button>
      ))}
    </div>
  );
}

function CompareVersions({
  versions,
  pair,
  onChange,
  fileName,
}: {
  versions: Version[];
  pair: [number, number];
  onChange: (p: [number, number]) => void;
  fileName: string;
}) {
  const videos = useRef<(HTMLVideoElement | null)[]>([null, null]);
  const bothVideos = pair.every((n) => (versions.find((x) => x.number === n) ?? versions[0]!).kind === "video");
  // Same elements when a side switches version (only src changes), so the listeners stay attached.
  useSyncedVideos(videos, bothVideos);
  return (
    <div className="space-y-2">
      {bothVideos && (
        <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
          <button
            type="button"
            className="rounded border border-slate-300 px-2 py-1 text-sm text-slate-800"
            onClick={() => {
              const [left, right] = videos.current;
              if (!left || !right) return;
              if (left.paused) {
                right.currentTime = left.currentTime;
                void left.play().catch(() => undefined);
                void right.play().catch(() => undefined);
              } else {
                left.pause();
                right.pause();
              }
            }}
          >
            Play or pause both
          </button>
          <span>The two versions play, pause and seek together.</span>
        </div>
      )}
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2" data-testid="compare">
        {pair.map((n, side) => {
          const v = versions.find((x) => x.number === n) ?? versions[0]!;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: the two sides of the comparison are fixed positions
            <figure key={side} className="space-y-1">
              <label className="block text-xs text-slate-700">
                <span className="sr-only">{side === 0 ? "Left" : "Right"} version</span>
                <select
                  value={n}
                  onChange={(e) => onChange(side === 0 ? [Number(e.target.value), pair[1]] : [pair[0], Number(e.target.value)])}
                  className="rounded border border-slate-300 px-1 py-0.5 text-xs"
                >
                  {versions.map((x) => (
                    <option key={x.number} value={x.number}>
                      v{x.number}
                    </option>
                  ))}
                </select>
              </label>
              {v.kind === "image" ? (
                // eslint-disable-next-line @next/next/no-img-element -- session media
                <img src={v.thumbnails?.large ?? v.mediaPath} alt={`${fileName}, version ${v.number}`} className="w-full rounded bg-slate-900 object-contain" />
              ) : (
                <video
                  ref={(el) => {
                    videos.current[side] = el;
                  }}
                  data-testid={`compare-video-${side === 0 ? "left" : "right"}`}
                  src={v.mediaPath}
                  poster={v.thumbnails?.large}
                  // One soundtrack: the right side stays muted.
                  muted={side === 1}
                  controls
                  playsInline
                  preload="metadata"
                  aria-label={`${fileName}, version ${v.number}`}
                  className="w-full rounded bg-slate-900"
                />
              )}
            </figure>
          );
        })}
      </div>
    </div>
  );
}

/**
 * Keeps two compared videos together: playing, pausing or seeking either does the same to the
 * other, and the right one is nudged back when it drifts from the left by more than a few frames.
 */
function useSyncedVideos(videos: { current: (HTMLVideoElement | null)[] }, enabled: boolean) {
  useEffect(() => {
    const [left, right] = videos.current;
    if (!enabled || !left || !right) return;
    const other = (el: HTMLVideoElement) => (el === left ? right : left);
    const onPlay = (e: Event) => {
      const o = other(e.target as HTMLVideoElement);
      if (o.paused) void o.play().catch(() => undefined);
    };
    const onPause = (e: Event) => {
      const o = other(e.target as HTMLVideoElement);
      if (!o.paused) o.pause();
    };
    const onSeeked = (e: Event) => {
      const el = e.target as HTMLVideoElement;
      const o = other(el);
      if (Math.abs(o.currentTime - el.currentTime) > 0.1) o.currentTime = el.currentTime;
    };
    const onTime = () => {
      if (!left.paused && !right.seeking && Math.abs(right.currentTime - left.currentTime) > 0.25) right.currentTime = left.currentTime;
    };
    for (const el of [left, right]) {
      el.addEventListener("play", onPlay);
      el.addEventListener("pause", onPause);
      el.addEventListener("seeked", onSeeked);
    }
    left.addEventListener("timeupdate", onTime);
    return () => {
      for (const el of [left, right]) {
        el.removeEventListener("play", onPlay);
        el.removeEventListener("pause", onPause);
        el.removeEventListener("seeked", onSeeked);
      }
      left.removeEventListener("timeupdate", onTime);
    };
  }, [videos, enabled]);
}
