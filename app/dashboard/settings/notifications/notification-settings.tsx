"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ApiError, apiFetch } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { Alert, Card, EmptyState } from "@/components/ui/misc";
import {
  NOTIFICATION_KIND_INFO,
  NOTIFICATION_KINDS,
  type NotificationKind,
  type NotificationPreferences,
  type SlackChannelView,
} from "@/lib/notifications/schemas";

const message = (e: unknown) => (e instanceof ApiError ? e.message : "That did not work. Please try again.");

export function NotificationSettings({ canManageSlack, workspaceName }: { canManageSlack: boolean; workspaceName: string }) {
  return (
    <div className="space-y-8">
      <EmailPreferences />
      {canManageSlack ? (
        <SlackChannel />
      ) : (
        <EmptyState title="Slack channel">Owners and admins of {workspaceName} connect a Slack channel for the whole team.</EmptyState>
      )}
    </div>
  );
}

function EmailPreferences() {
  const queryClient = useQueryClient();
  const prefs = useQuery({ queryKey: ["notification-preferences"], queryFn: () => apiFetch<NotificationPreferences>("/api/v1/notifications/preferences") });
  const [chosen, setChosen] = useState<Record<string, boolean> | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (prefs.data) setChosen(Object.fromEntries(prefs.data.preferences.map((p) => [p.kind, p.email])));
  }, [prefs.data]);
  const save = useMutation({
    mutationFn: () => apiFetch<NotificationPreferences>("/api/v1/notifications/preferences", { method: "PATCH", json: { email: chosen } }),
    onSuccess: (data) => {
      setError(null);
      queryClient.setQueryData(["notification-preferences"], data);
      setNotice("Your email notifications are saved.");
    },
    onError: (e) => setError(message(e)),
  });

  if (prefs.isPending || !chosen) return <p className="text-sm text-slate-600">Loading…</p>;
  if (prefs.isError) return <Alert>{message(prefs.error)}</Alert>;
  const { emailAddress, emailTransport } = prefs.data;
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">Email</h2>
      <div className="mt-3" data-testid="email-transport" data-transport={emailTransport}>
        {emailTransport === "smtp" ? (
          <p className="text-sm text-slate-700">
            Emails go to <strong className="break-all">{emailAddress}</strong>.
          </p>
        ) : (
          <Alert tone="amber">
            No mail server is configured on this server, so emails to <strong className="break-all">{emailAddress}</strong> wait in its outbox instead of being
            sent (the operator reads it with <code className="font-mono text-xs">npm run admin -- mail list</code>).
          </Alert>
        )}
      </div>
      <form
        className="mt-4"
        onSubmit={(e) => {
          e.preventDefault();
          setNotice(null);
          save.mutate();
        }}
      >
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Email me about</legend>
          <ul className="mt-2 divide-y divide-slate-100">
            {prefs.data.preferences.map((p) => (
              <li key={p.kind} className="py-2">
                <label className="flex items-start gap-3 text-sm">
                  <input
                    type="checkbox"
                    className="mt-0.5 size-4 shrink-0 accent-indigo-600"
                    name={p.kind}
                    checked={chosen[p.kind] ?? true}
                    onChange={(e) => setChosen((c) => ({ ...c, [p.kind]: e.target.checked }))}
                  />
                  <span>
                    <span className="font-medium text-slate-900">{p.label}</span>
                    <span className="block text-slate-600">Sent to {p.who}.</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        {error && (
          <div className="mt-3">
            <Alert>{error}</Alert>
          </div>
        )}
        {notice && !error && (
          <div className="mt-3" role="status">
            <Alert tone="green">{notice}</Alert>
          </div>
        )}
        <Button type="submit" className="mt-4" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save email choices"}
        </Button>
      </form>
    </Card>
  );
}

function SlackChannel() {
  const queryClient = useQueryClient();
  const channel = useQuery({ queryKey: ["slack-channel"], queryFn: () => apiFetch<{ slack: SlackChannelView | null }>("/api/v1/notifications/slack") });
  const slack = channel.data?.slack ?? null;
  const [url, setUrl] = useState("");
  const [kinds, setKinds] = useState<NotificationKind[]>([...NOTIFICATION_KINDS]);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  useEffect(() => {
    if (slack) setKinds(slack.kinds);
  }, [slack]);
  const done = (text: string) => () => {
    setError(null);
    setNotice(text);
    setUrl("");
    void queryClient.invalidateQueries({ queryKey: ["slack-channel"] });
  };
  const save = useMutation({
    mutationFn: () => apiFetch("/api/v1/notifications/slack", { method: "PUT", json: { ...(url.trim() ? { url: url.trim() } : {}), kinds } }),
    onSuccess: done("Slack channel saved."),
    onError: (e) => setError(message(e)),
  });
  const test = useMutation({
    mutationFn: () => apiFetch("/api/v1/notifications/slack/test", { method: "POST" }),
    onSuccess: () => {
      setError(null);
      setNotice("Test message posted: look for it in the channel.");
    },
    onError: (e) => setError(message(e)),
  });
  const remove = useMutation({
    mutationFn: () => apiFetch("/api/v1/notifications/slack", { method: "DELETE" }),
    onSuccess: () => {
      setRemoving(false);
      setKinds([...NOTIFICATION_KINDS]);
      done("Slack channel removed.")();
    },
    onError: (e) => setError(message(e)),
  });

  if (channel.isPending) return <p className="text-sm text-slate-600">Loading…</p>;
  if (channel.isError) return <Alert>{message(channel.error)}</Alert>;
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">Slack channel</h2>
      <p className="mt-1 text-sm text-slate-600">
        One channel for the whole workspace gets a message for each event of the kinds chosen below. In Slack, add an incoming webhook to the channel and paste
        its URL here; it is stored encrypted and not shown again.
      </p>
      {slack && (
        <p className="mt-3 text-sm text-slate-700" data-testid="slack-connected">
          Connected: <code className="break-all font-mono text-xs">{slack.urlHint}</code>
        </p>
      )}
      <form
        className="mt-4 space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          setNotice(null);
          save.mutate();
        }}
      >
        <Field
          id="slack-url"
          type="url"
          label={slack ? "New incoming-webhook URL (leave empty to keep the current one)" : "Incoming-webhook URL"}
          placeholder="https://hooks.slack.com/services/…"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          required={!slack}
          hint="A public HTTPS URL, checked like a webhook endpoint."
        />
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Post to the channel</legend>
          <div className="mt-2 grid gap-1.5 sm:grid-cols-2">
            {NOTIFICATION_KINDS.map((kind) => (
              <label key={kind} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4 accent-indigo-600"
                  checked={kinds.includes(kind)}
                  onChange={(e) => setKinds((k) => (e.target.checked ? [...k, kind] : k.filter((x) => x !== kind)))}
                />
                {NOTIFICATION_KIND_INFO[kind].label}
              </label>
            ))}
          </div>
        </fieldset>
        {error && <Alert>{error}</Alert>}
        {notice && !error && (
          <div role="status">
            <Alert tone="green">{notice}</Alert>
          </div>
        )}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={save.isPending || (!slack && !url.trim())}>
            {slack ? "Save channel" : "Connect channel"}
          </Button>
          {slack && (
            <>
              <Button type="button" variant="secondary" onClick={() => test.mutate()} disabled={test.isPending}>
                Send test message
              </Button>
              <Button type="button" variant="danger-ghost" onClick={() => setRemoving(true)}>
                Remove channel
              </Button>
            </>
          )}
        </div>
      </form>
      <ConfirmDialog
        open={removing}
        title="Remove the Slack channel?"
        confirmLabel="Remove"
        busy={remove.isPending}
        onCancel={() => setRemoving(false)}
        onConfirm={() => remove.mutate()}
      >
        Nothing more is posted to it. Email notifications are not affected.
      </ConfirmDialog>
    </Card>
  );
}
