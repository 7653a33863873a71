"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { ImageWithPins } from "@/components/review/image-with-pins";
import { ReviewStatusBadge } from "@/components/review/status-badge";
import { ThreadList } from "@/components/review/thread-list";
import { formatTimeCode, toTimeSeconds } from "@/components/review/time-code";
import { VideoWithMarks } from "@/components/review/video-with-marks";
import type { GuestCreative, GuestView } from "@/lib/read-models/guest-review";

type Guest = { name: string; email: string };
const GUEST_KEY = "adloom-review-guest";

async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data?.error?.message ?? `The server answered ${res.status}`);
  return data as T;
}

/**
 * The link's creatives a page at a time: the server rendered the first; the next comes as the reviewer
 * scrolls near the end of the list (or presses "Load more"), from the guest API's nextCursor.
 */
function usePagedCreatives(token: string, view: GuestView) {
  const [creatives, setCreatives] = useState(view.creatives);
  const [nextCursor, setNextCursor] = useState(view.nextCursor);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const busy = useRef(false);
  const loadMore = useCallback(async () => {
    if (!nextCursor || busy.current) return;
    busy.current = true;
    setLoading(true);
    try {
      const res = await fetch(`/api/review/${token}?cursor=${encodeURIComponent(nextCursor)}`);
      const data = await res.json().catch(() => ({}));
      if (!res.ok) throw new Error(data?.error?.message ?? `The server answered ${res.status}`);
      const page = data as GuestView;
      setCreatives((shown) => {
        const seen = new Set(shown.map((c) => c.id));
        return [...shown, ...page.creatives.filter((c) => !seen.has(c.id))];
      });
      setNextCursor(page.nextCursor);
      setError(null);
    } catch (e) {
      setError(`More creatives could not be loaded: ${(e as Error).message}`);
    } finally {
      busy.current = false;
      setLoading(false);
    }
  }, [token, nextCursor]);
  return { creatives, nextCursor, loading, error, loadMore };
}

/** The guest's review page: exactly the link's creatives, with comments and decisions as the link allows. */
export function GuestReview({ token, view }: { token: string; view: GuestView }) {
  const [guest, setGuest] = useState<Guest | null>(null);
  const [editing, setEditing] = useState(false);
  const { creatives, nextCursor, loading, error: loadError, loadMore } = usePagedCreatives(token, view);
  const more = useRef<HTMLButtonElement>(null);
  // The next page loads once "Load more" comes within a screen of the viewport; a new observer after each
  // page reports at once if the button is still that near (a short page), so loading goes on to fill the screen.
  useEffect(() => {
    if (!nextCursor || loadError || !more.current) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void loadMore(), { rootMargin: "800px 0px" });
    observer.observe(more.current);
    return () => observer.disconnect();
  }, [nextCursor, loadError, loadMore]);
  useEffect(() => {
    try {
      const saved = JSON.parse(localStorage.getItem(GUEST_KEY) ?? "null") as Guest | null;
      if (saved?.name) setGuest(saved);
    } catch {
      /* nothing remembered */
    }
  }, []);
  const interactive = view.permissions.comment || view.permissions.decide;
  return (
    <main className="mx-auto max-w-3xl px-3 py-6 sm:px-6">
      <header className="mb-4">
        <p className="text-xs font-medium uppercase tracking-wide text-slate-600">Review</p>
        <h1 className="text-2xl font-semibold text-slate-900">{view.linkName}</h1>
        <p className="text-sm text-slate-600" data-testid="guest-creative-count">
          {view.creativeCount} creative{view.creativeCount === 1 ? "" : "s"}
        </p>
      </header>
      {interactive && (
        <section aria-label="Who is reviewing" className="mb-6 rounded-lg border border-slate-200 bg-white p-3">
          {guest && !editing ? (
            <p className="text-sm text-slate-800">
              Reviewing as <strong data-testid="guest-name">{guest.name}</strong>{" "}
              <button type="button" className="text-indigo-700 underline" onClick={() => setEditing(true)}>
                Change
              </button>
            </p>
          ) : (
            <GuestForm
              initial={guest}
              onSave={(g) => {
                localStorage.setItem(GUEST_KEY, JSON.stringify(g));
                setGuest(g);
                setEditing(false);
              }}
            />
          )}
        </section>
      )}
      <ul className="space-y-8">
        {creatives.map((c, i) => (
          <li key={c.id}>
            <CreativeCard token={token} initial={c} eager={i < 3} guest={guest} permissions={view.permissions} />
          </li>
        ))}
      </ul>
      {!creatives.length && <p className="text-sm text-slate-600">Nothing to review here yet.</p>}
      {nextCursor && (
        <div className="mt-8 flex flex-col items-center gap-2">
          <p className="text-sm text-slate-600" aria-live="polite" data-testid="guest-shown">
            Showing {creatives.length} of {Math.max(view.creativeCount, creatives.length)}
          </p>
          <button
            ref={more}
            type="button"
            disabled={loading}
            onClick={() => void loadMore()}
            className="rounded border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-900 disabled:opacity-50"
          >
            {loading ? "Loading…" : "Load more"}
          </button>
          {loadError && (
            <p role="alert" className="text-sm text-rose-700">
              {loadError}
            </p>
          )}
        </div>
      )}
    </main>
  );
}

function GuestForm({ initial, onSave }: { initial: Guest | null; onSave: (g: Guest) => void }) {
  const [name, setName] = useState(initial?.name ?? "");
  const [email, setEmail] = useState(initial?.email ?? "");
  return (
    <form
      className="flex flex-col gap-2 sm:flex-row sm:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim()) onSave({ name: name.trim(), email: email.trim() });
      }}
    >
      <div className="flex-1">
        <label htmlFor="guest-name" className="block text-sm font-medium text-slate-800">
          Your name
        </label>
        <input
          id="guest-name"
          required
          maxLength={100}
          value={name}
          onChange={(e) => setName(e.target.value)}
          className="w-full rounded border border-slate-300 px-2 py-1.5"
        />
      </div>
      <div className="flex-1">
        <label htmlFor="guest-email" className="block text-sm font-medium text-slate-800">
          Email <span className="font-normal text-slate-600">(optional)</span>
        </label>
        <input
          id="guest-email"
          type="email"
          maxLength={200}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          className="w-full rounded border border-slate-300 px-2 py-1.5"
        />
      </div>
      <button type="submit" className="rounded bg-indigo-600 px-3 py-1.5 font-medium text-white">
        Save
      </button>
    </form>
  );
}

function CreativeCard({
  token,
  initial,
  eager,
  guest,
  permissions,
}: {
  token: string;
  initial: GuestCreative;
  eager: boolean;
  guest: Guest | null;
  permissions: GuestView["permissions"];
}) {
  const [creative, setCreative] = useState(initial);
  const [body, setBody] = useState("");
  const [pin, setPin] = useState<{ x: number; y: number } | null>(null);
  const [atTime, setAtTime] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const card = useRef<HTMLElement>(null);
  // Cards below the first screens render their comment tools once they come near the viewport:
  // a link with many creatives then costs little to render, and its first pictures arrive sooner.
  const [near, setNear] = useState(eager);
  useEffect(() => {
    if (near || !card.current) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: "800px 0px" });
    observer.observe(card.current);
    return () => observer.disconnect();
  }, [near]);
  const who = guest ? { name: guest.name, email: guest.email || null } : null;
  const headingId = `creative-${creative.id}`;

  const act = async (fn: () => Promise<{ creative: GuestCreative }>) => {
    if (!who) return setError("Enter your name above first.");
    setBusy(true);
    try {
      setCreative((await fn()).creative);
      setError(null);
      return true;
    } catch (e) {
      setError((e as Error).message);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const comment = async () => {
    const timeSeconds = creative.kind === "video" && atTime && video.current ? toTimeSeconds(video.current.currentTime) : null;
    const ok = await act(() =>
      post(`/api/review/${token}/comments`, { creativeId: creative.id, ...who, body, timeSeconds, pin: creative.kind === "image" ? pin : null }),
    );
    if (ok) setBody(""), setPin(null);
  };

  return (
    <article ref={card} aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white p-3 sm:p-4" data-testid="guest-creative">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="min-w-0 break-all text-base font-semibold text-slate-900">
          {creative.fileName} <span className="text-xs font-normal text-slate-600">v{creative.versionNumber}</span>
        </h2>
        <ReviewStatusBadge status={creative.status} />
      </div>
      {creative.kind === "image" ? (
        <ImageWithPins
          src={creative.mediaUrl}
          alt={creative.fileName}
          width={creative.width}
          height={creative.height}
          threads={creative.threads}
          pending={pin}
          onPick={permissions.comment ? setPin : undefined}
          eager={eager}
        />
      ) : (
        <VideoWithMarks
          ref={video}
          src={creative.mediaUrl}
          title={creative.fileName}
          durationSeconds={creative.durationSeconds}
          threads={creative.threads}
          preload={eager ? "metadata" : "none"}
          poster={creative.posterUrl}
        />
      )}
      {creative.downloadUrl && (
        <a href={creative.downloadUrl} className="mt-2 inline-block text-sm text-indigo-700 underline">
          Download original
        </a>
      )}
      {!near && (
        <p className="mt-3 text-sm text-slate-600">
          {creative.threads.length} comment{creative.threads.length === 1 ? "" : "s"}
        </p>
      )}
      {near && permissions.decide && (
        <div className="mt-3 flex flex-wrap gap-2">
          <button
            type="button"
            disabled={busy}
            onClick={() => act(() => post(`/api/review/${token}/decision`, { creativeId: creative.id, ...who, decision: "approved" }))}
            className="rounded bg-emerald-700 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50"
          >
            Approve
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => act(() => post(`/api/review/${token}/decision`, { creativeId: creative.id, ...who, decision: "changes_requested" }))}
            className="rounded bg-amber-700 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50"
          >
            Request changes
          </button>
        </div>
      )}
      {near && permissions.comment && (
        <form
          className="mt-3 space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (body.trim()) void comment();
          }}
        >
          <label htmlFor={`comment-${creative.id}`} className="block text-sm font-medium text-slate-800">
            Comment
          </label>
          <textarea
            id={`comment-${creative.id}`}
            rows={2}
            maxLength={5000}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            className="w-full rounded border border-slate-300 px-2 py-1.5"
          />
          <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
            {creative.kind === "video" ? (
              <label className="flex items-center gap-2 text-slate-800">
                <input type="checkbox" checked={atTime} onChange={(e) => setAtTime(e.target.checked)} /> At the video&apos;s current time
              </label>
            ) : (
              <span className="text-slate-600">
                {pin ? `Pinned at ${Math.round(pin.x * 100)}%, ${Math.round(pin.y * 100)}%` : "Tap the image to pin your comment"}
              </span>
            )}
            <button type="submit" disabled={busy} className="rounded bg-indigo-600 px-3 py-1.5 font-medium text-white disabled:opacity-50">
              Post comment
            </button>
          </div>
        </form>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-rose-700">
          {error}
        </p>
      )}
      {near && (
        <div className="mt-4">
          <h3 className="mb-2 text-sm font-semibold text-slate-900">Comments</h3>
          <ThreadList
            threads={creative.threads}
            onSeek={(t) => {
              if (video.current) video.current.currentTime = t;
            }}
            onReply={
              permissions.comment
                ? async (threadId, text) =>
                    void (await act(() => post(`/api/review/${token}/comments`, { creativeId: creative.id, ...who, body: text, parentId: threadId })))
                : undefined
            }
          />
        </div>
      )}
      <p className="sr-only">{creative.kind === "video" && creative.durationSeconds ? `Duration ${formatTimeCode(creative.durationSeconds)}` : ""}</p>
    </article>
  );
}
