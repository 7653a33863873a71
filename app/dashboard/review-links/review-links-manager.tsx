"use client";
import { useMemberClock } from "@/components/dashboard/time-zone";
import { useState } from "react";
import { formatDateTime } from "@/components/dashboard/format";
import { Badge, Card } from "@/components/ui/misc";
import type { ReviewLinkView } from "@/lib/review/schemas";
import { CopyButton } from "@/components/ui/copy-button";
import { reviewLinkUrlAction, revokeLinkAction, shareFolderAction } from "./actions";

const STATE_TONE = { active: "green", expired: "amber", revoked: "rose" } as const;

/** "the folder Campaign Q3 and its subfolders" or "a.png, b.mp4 and 3 more". */
function sharesText(l: ReviewLinkView): string {
  if (l.folderId) return l.shares?.folderName ? `the folder ${l.shares.folderName} and its subfolders` : "a folder and its subfolders";
  const count = l.shares?.creativeCount ?? l.creativeIds.length;
  const names = l.shares?.creativeNames ?? [];
  if (!names.length) return `${count} creative${count === 1 ? "" : "s"}`;
  const more = count - names.length;
  return more > 0 ? `${names.join(", ")} and ${more} more` : names.join(", ");
}

export function ReviewLinksManager({ initialLinks, folders }: { initialLinks: ReviewLinkView[]; folders: { id: string; name: string }[] }) {
  const clock = useMemberClock();
  const [links, setLinks] = useState(initialLinks);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  // Addresses shown again on request (get_review_link_url), by link id.
  const [shown, setShown] = useState<Record<string, string>>({});
  const [form, setForm] = useState({
    folderId: folders[0]?.id ?? "",
    name: "",
    password: "",
    expiresAt: "",
    comment: true,
    decide: true,
    download: false,
    internalComments: false,
  });

  return (
    <div className="space-y-6">
      {folders.length > 0 && (
        <Card className="p-4">
          <h2 className="mb-3 text-base font-semibold text-slate-900">Share a folder</h2>
          <form
            className="grid gap-3 text-sm sm:grid-cols-2"
            onSubmit={async (e) => {
              e.preventDefault();
              const res = await shareFolderAction(form);
              if (!res.ok) return setError(res.error);
              setError(null);
              setCreated(res.data.url);
              setLinks((l) => [res.data.link, ...l]);
            }}
          >
            <label className="block">
              <span className="text-slate-800">Folder</span>
              <select
                value={form.folderId}
                onChange={(e) => setForm({ ...form, folderId: e.target.value })}
                className="w-full rounded border border-slate-300 px-2 py-1.5"
              >
                {folders.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.name}
                  </option>
                ))}
              </select>
            </label>
            <label className="block">
              <span className="text-slate-800">Link name</span>
              <input
                required
                maxLength={200}
                value={form.name}
                onChange={(e) => setForm({ ...form, name: e.target.value })}
                className="w-full rounded border border-slate-300 px-2 py-1.5"
              />
            </label>
            <label className="block">
              <span className="text-slate-800">Password (optional)</span>
              <input
                type="password"
                autoComplete="new-password"
                minLength={6}
                value={form.password}
                onChange={(e) => setForm({ ...form, password: e.target.value })}
                className="w-full rounded border border-slate-300 px-2 py-1.5"
              />
            </label>
            <label className="block">
              <span className="text-slate-800">Expires (optional)</span>
              <input
                type="datetime-local"
                value={form.expiresAt}
                onChange={(e) => setForm({ ...form, expiresAt: e.target.value })}
                className="w-full rounded border border-slate-300 px-2 py-1.5"
              />
            </label>
            <fieldset className="flex flex-wrap gap-3 sm:col-span-2">
              <legend className="sr-only">Guests may</legend>
              {(["comment", "decide", "download", "internalComments"] as const).map((k) => (
                <label key={k} className="flex items-center gap-1 text-slate-800">
                  <input type="checkbox" checked={form[k]} onChange={(e) => setForm({ ...form, [k]: e.target.checked })} />
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
            <div className="sm:col-span-2">
              <button type="submit" className="rounded bg-indigo-600 px-3 py-1.5 font-medium text-white">
                Create link
              </button>
            </div>
          </form>
          {created && (
            <p className="mt-3 break-all rounded bg-emerald-50 p-2 text-sm text-emerald-900">
              Your link (Review links can show it again):{" "}
              <a href={created} className="underline">
                {created}
              </a>
            </p>
          )}
        </Card>
      )}
      {error && (
        <p role="alert" className="text-sm text-rose-700">
          {error}
        </p>
      )}
      {links.length === 0 ? (
        <p className="text-sm text-slate-600">No review links yet. Share a creative from its page in the library.</p>
      ) : (
        <ul className="space-y-2" aria-label="Review links">
          {links.map((l) => (
            <li key={l.id} data-testid="review-link-row">
              <Card className="flex flex-col gap-2 p-3 text-sm sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p className="break-words font-medium text-slate-900">
                    {l.name} <Badge tone={STATE_TONE[l.state]}>{l.state}</Badge>
                  </p>
                  <p className="break-words text-slate-800" data-testid="review-link-shares">
                    Shares {sharesText(l)}
                  </p>
                  <p className="text-slate-600">
                    Created {formatDateTime(l.createdAt, clock)}
                    {l.expiresAt ? ` · expires ${formatDateTime(l.expiresAt, clock)}` : ""}
                    {l.passwordProtected ? " · password" : ""} · guests may{" "}
                    {[l.permissions.comment && "comment", l.permissions.decide && "decide", l.permissions.download && "download"].filter(Boolean).join(", ") ||
                      "view"}
                    {" · "}
                    <span data-testid="review-link-internal">
                      {l.permissions.internalComments ? "guests see internal comments" : "internal comments hidden from guests"}
                    </span>
                  </p>
                  {shown[l.id] && (
                    <p className="mt-1 flex flex-wrap items-center gap-2">
                      <a href={shown[l.id]} className="break-all text-indigo-700 underline" data-testid="review-link-url">
                        {shown[l.id]}
                      </a>
                      <CopyButton value={shown[l.id]!} label="Copy link" />
                    </p>
                  )}
                </div>
                {l.state === "active" && (
                  <div className="flex flex-wrap items-center gap-2 self-start sm:self-auto">
                    {l.copyable &&
                      (shown[l.id] ? null : (
                        <button
                          type="button"
                          className="rounded border border-slate-300 px-2 py-1 text-slate-800"
                          onClick={async () => {
                            const res = await reviewLinkUrlAction(l.id);
                            if (!res.ok) return setError(res.error);
                            setShown((all) => ({ ...all, [l.id]: res.data.url }));
                          }}
                        >
                          Show link
                        </button>
                      ))}
                    <button
                      type="button"
                      className="self-start rounded border border-rose-300 px-2 py-1 text-rose-800 sm:self-auto"
                      onClick={async () => {
                        const res = await revokeLinkAction(l.id);
                        if (!res.ok) return setError(res.error);
                        setLinks((all) => all.map((x) => (x.id === l.id ? res.data.link : x)));
                      }}
                    >
                      Revoke
                    </button>
                  </div>
                )}
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
