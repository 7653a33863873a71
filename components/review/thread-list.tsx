"use client";
import { useState } from "react";
import { formatTimeCode } from "./time-code";
import type { ThreadView } from "./types";

/**
 * Comment threads: time codes seek the video (onSeek), pins are numbered as on the image.
 * Replying, resolving and deleting appear only when their callbacks are given.
 */
export function ThreadList({
  threads,
  onSeek,
  onReply,
  onResolve,
  onDelete,
  canDelete,
}: {
  threads: ThreadView[];
  onSeek?: (seconds: number) => void;
  onReply?: (threadId: string, body: string) => Promise<void>;
  onResolve?: (threadId: string, resolved: boolean) => Promise<void>;
  onDelete?: (commentId: string) => Promise<void>;
  canDelete?: (authorUserId: string | null) => boolean;
}) {
  if (!threads.length) return <p className="text-sm text-slate-600">No comments yet.</p>;
  let pinNumber = 0;
  return (
    <ol className="space-y-3" aria-label="Comment threads">
      {threads.map((t) => {
        const pinLabel = t.pin ? ++pinNumber : null;
        return (
          <li
            key={t.id}
            data-testid="thread"
            className={`rounded-lg border p-3 text-sm ${t.resolved ? "border-slate-200 bg-slate-50" : "border-slate-300 bg-white"}`}
          >
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium text-slate-900">{t.authorName}</span>
              {t.guest && <span className="rounded bg-slate-100 px-1.5 text-xs text-slate-700">guest</span>}
              {t.timeSeconds !== null && (
                <button
                  type="button"
                  className="rounded bg-amber-100 px-1.5 font-mono text-xs text-amber-900 hover:bg-amber-200"
                  data-testid="time-code"
                  onClick={() => onSeek?.(t.timeSeconds!)}
                >
                  {formatTimeCode(t.timeSeconds)}
                </button>
              )}
              {pinLabel !== null && <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-900">pin {pinLabel}</span>}
              {t.resolved && <span className="text-xs text-slate-600">resolved</span>}
            </div>
            <p className="mt-1 whitespace-pre-wrap break-words text-slate-800">{t.body}</p>
            {t.replies.length > 0 && (
              <ul className="mt-2 space-y-1 border-l-2 border-slate-200 pl-3">
                {t.replies.map((r) => (
                  <li key={r.id}>
                    <span className="font-medium text-slate-900">{r.authorName}</span>
                    {r.guest && <span className="ml-1 text-xs text-slate-600">(guest)</span>}:{" "}
                    <span className="whitespace-pre-wrap break-words text-slate-800">{r.body}</span>
                    {onDelete && canDelete?.(r.authorUserId ?? null) && (
                      <button type="button" className="ml-2 text-xs text-rose-700 underline" onClick={() => onDelete(r.id)}>
                        Delete
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
            <ThreadActions
              thread={t}
              onReply={onReply}
              onResolve={onResolve}
              onDelete={onDelete && canDelete?.(t.authorUserId ?? null) ? onDelete : undefined}
            />
          </li>
        );
      })}
    </ol>
  );
}

function ThreadActions({
  thread,
  onReply,
  onResolve,
  onDelete,
}: {
  thread: ThreadView;
  onReply?: (threadId: string, body: string) => Promise<void>;
  onResolve?: (threadId: string, resolved: boolean) => Promise<void>;
  onDelete?: (commentId: string) => Promise<void>;
}) {
  const [reply, setReply] = useState("");
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    try {
      await fn();
    } finally {
      setBusy(false);
    }
  };
  if (!onReply && !onResolve && !onDelete) return null;
  return (
    <div className="mt-2 space-y-2">
      {onReply && (
        <form
          className="flex gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (reply.trim()) void run(async () => (await onReply(thread.id, reply), setReply("")));
          }}
        >
          <label className="sr-only" htmlFor={`reply-${thread.id}`}>
            Reply
          </label>
          <input
            id={`reply-${thread.id}`}
            value={reply}
            onChange={(e) => setReply(e.target.value)}
            placeholder="Reply…"
            className="min-w-0 flex-1 rounded border border-slate-300 px-2 py-1"
          />
          <button type="submit" disabled={busy} className="rounded bg-slate-800 px-2 py-1 text-xs font-medium text-white disabled:opacity-50">
            Reply
          </button>
        </form>
      )}
      <div className="flex gap-3 text-xs">
        {onResolve && (
          <button type="button" disabled={busy} className="text-slate-700 underline" onClick={() => run(() => onResolve(thread.id, !thread.resolved))}>
            {thread.resolved ? "Reopen" : "Resolve"}
          </button>
        )}
        {onDelete && (
          <button type="button" disabled={busy} className="text-rose-700 underline" onClick={() => run(() => onDelete(thread.id))}>
            Delete
          </button>
        )}
      </div>
    </div>
  );
}
