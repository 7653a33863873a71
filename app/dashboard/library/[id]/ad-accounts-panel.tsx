"use client";
import { useCallback, useEffect, useState } from "react";
import { PLATFORM_LABEL } from "@/components/dashboard/ad-account-label";
import { Badge, Card } from "@/components/ui/misc";
import { loadAdAccountsAction, loadPushesAction, sendToAdAccountAction } from "./push-actions";

type Push = Awaited<ReturnType<typeof loadPushesAction>> extends infer R ? (R extends { ok: true; data: { pushes: (infer P)[] } } ? P : never) : never;
type Account =
  Awaited<ReturnType<typeof loadAdAccountsAction>> extends infer R ? (R extends { ok: true; data: { adAccounts: (infer A)[] } } ? A : never) : never;

const STATE_TONE = { queued: "slate", transferring: "sky", processing: "amber", ready: "green", failed: "rose" } as const;

function accountLabel(a: Account): string {
  return `${PLATFORM_LABEL[a.platform]} · ${a.name}${a.sandbox ? " (sandbox)" : ""}`;
}

/**
 * Where this creative's media is: one row per ad account it was sent to (state, chunk progress,
 * the platform's reason when it failed), and "Send to ad account" for the accounts it is not on.
 */
export function AdAccountsPanel({ creativeId, canSend }: { creativeId: string; canSend: boolean }) {
  const [pushes, setPushes] = useState<Push[] | null>(null);
  const [accounts, setAccounts] = useState<Account[]>([]);
  const [target, setTarget] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const refresh = useCallback(async () => {
    const res = await loadPushesAction(creativeId);
    if (res.ok) setPushes(res.data.pushes);
    else setError(res.error);
  }, [creativeId]);

  useEffect(() => {
    void refresh();
    void loadAdAccountsAction().then((res) => res.ok && setAccounts(res.data.adAccounts.filter((a) => a.status === "active")));
  }, [refresh]);

  const inFlight = pushes?.some((p) => p.state !== "ready" && p.state !== "failed") ?? false;
  useEffect(() => {
    if (!inFlight) return;
    const timer = setInterval(() => void refresh(), 1500);
    return () => clearInterval(timer);
  }, [inFlight, refresh]);

  const byId = new Map(accounts.map((a) => [a.id, a]));
  const present = new Set((pushes ?? []).filter((p) => p.state !== "failed").map((p) => p.adAccountId));
  const choices = accounts.filter((a) => !present.has(a.id));
  const selected = choices.some((a) => a.id === target) ? target : (choices[0]?.id ?? "");

  return (
    <Card className="p-4">
      <h2 className="mb-3 text-base font-semibold text-slate-900">Ad accounts</h2>
      {pushes === null ? (
        <p className="text-sm text-slate-600">Loading…</p>
      ) : pushes.length === 0 ? (
        <p className="text-sm text-slate-600">Not on any ad account yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm" aria-label="Ad accounts this creative is on">
          {pushes.map((p) => {
            const account = byId.get(p.adAccountId);
            return (
              <li key={p.id} className="flex flex-wrap items-center gap-2 py-2" data-testid="creative-push">
                <span className="min-w-0 flex-1 break-words text-slate-900">{account ? accountLabel(account) : PLATFORM_LABEL[p.platform]}</span>
                <Badge tone={STATE_TONE[p.state]}>{p.state}</Badge>
                {p.chunksTotal > 0 && p.state !== "ready" && (
                  <span className="text-slate-600">
                    {p.chunksDone} / {p.chunksTotal} chunks
                  </span>
                )}
                {p.failureReason && <span className="basis-full text-rose-800">{p.failureReason}</span>}
              </li>
            );
          })}
        </ul>
      )}
      {canSend && choices.length > 0 && (
        <form
          className="mt-3 flex flex-wrap items-end gap-2 text-sm"
          onSubmit={async (e) => {
            e.preventDefault();
            setBusy(true);
            const res = await sendToAdAccountAction(creativeId, selected);
            setBusy(false);
            if (!res.ok) return setError(res.error);
            setError(null);
            await refresh();
          }}
        >
          <label className="block min-w-0 flex-1">
            <span className="text-slate-800">Ad account</span>
            <select value={selected} onChange={(e) => setTarget(e.target.value)} className="w-full rounded border border-slate-300 bg-white px-2 py-1.5">
              {choices.map((a) => (
                <option key={a.id} value={a.id}>
                  {accountLabel(a)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={busy || !selected} className="rounded bg-slate-800 px-3 py-1.5 font-medium text-white disabled:opacity-60">
            Send to ad account
          </button>
        </form>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-rose-800">
          {error}
        </p>
      )}
    </Card>
  );
}
