"use client";
import { useState } from "react";
import { shareCreativeAction } from "./review-actions";

/** Creates a review link for this creative; the page Review links can show its address again (derived, only its hash is kept). */
export function ShareForm({ creativeId, fileName }: { creativeId: string; fileName: string }) {
  const [name, setName] = useState(fileName);
  const [password, setPassword] = useState("");
  const [expiresAt, setExpiresAt] = useState("");
  const [perms, setPerms] = useState({ comment: true, decide: true, download: false, internalComments: false });
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="space-y-2 text-sm"
      onSubmit={async (e) => {
        e.preventDefault();
        const res = await shareCreativeAction({ creativeId, name, password, expiresAt, ...perms });
        if (res.ok) setUrl(res.data.url), setError(null);
        else setError(res.error);
      }}
    >
      <div className="grid gap-2 sm:grid-cols-2">
        <label className="block">
          <span className="text-slate-800">Link name</span>
          <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} className="w-full rounded border border-slate-300 px-2 py-1" />
        </label>
        <label className="block">
          <span className="text-slate-800">Password (optional)</span>
          <input
            type="password"
            autoComplete="new-password"
            minLength={6}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            className="w-full rounded border border-slate-300 px-2 py-1"
          />
        </label>
        <label className="block">
          <span className="text-slate-800">Expires (optional)</span>
          <input
            type="datetime-local"
            value={expiresAt}
            onChange={(e) => setExpiresAt(e.target.value)}
            className="w-full rounded border border-slate-300 px-2 py-1"
          />
        </label>
      </div>
      <fieldset className="flex flex-wrap gap-3">
        <legend className="sr-only">Guests may</legend>
        {(["comment", "decide", "download", "internalComments"] as const).map((k) => (
          <label key={k} className="flex items-center gap-1 text-slate-800">
            <input type="checkbox" checked={perms[k]} onChange={(e) => setPerms({ ...perms, [k]: e.target.checked })} />
            {k === "comment"
              ? "Comment"
              : k === "decide"
                ? "Approve / request changes"
                : k === "download"
                  ? "Download originals"
                  : "See the team's internal comments"}
          </label>
        ))}
      </fieldset>
      <button type="submit" className="rounded bg-slate-800 px-3 py-1.5 font-medium text-white">
        Create link
      </button>
      {error && (
        <p role="alert" className="text-rose-700">
          {error}
        </p>
      )}
      {url && (
        <p className="break-all rounded bg-emerald-50 p-2 text-emerald-900">
          Your link (Review links can show it again):{" "}
          <a data-testid="review-link-url" href={url} className="underline">
            {url}
          </a>
        </p>
      )}
    </form>
  );
}
