"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ApiError, apiFetch } from "@/components/dashboard/api";
import { formatDateTime, formatRelative } from "@/components/dashboard/format";
import { useMemberClock } from "@/components/dashboard/time-zone";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { Field, Select } from "@/components/ui/field";
import { Alert, Badge, Card, EmptyState, TableHead } from "@/components/ui/misc";
import type { WebhookDeliveryView, WebhookEndpointView } from "@/lib/webhooks/schemas";

const message = (e: unknown) => (e instanceof ApiError ? e.message : "That did not work. Please try again.");

function Health({ webhook }: { webhook: WebhookEndpointView }) {
  const clock = useMemberClock();
  const h = webhook.health;
  if (!h.lastDeliveryAt) return <Badge>No deliveries yet</Badge>;
  if (h.consecutiveFailures > 0)
    return (
      <Badge tone="rose">
        Failing: {h.consecutiveFailures} in a row{h.lastResponseStatus ? `, last answer ${h.lastResponseStatus}` : ""}
      </Badge>
    );
  return <Badge tone="green">Healthy · last delivery {formatRelative(h.lastDeliveryAt, Date.now(), clock)}</Badge>;
}

export function WebhookSettings({ eventTypes }: { eventTypes: string[] }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const endpoint = useQuery({ queryKey: ["webhook"], queryFn: () => apiFetch<{ webhook: WebhookEndpointView | null }>("/api/v1/webhooks") });
  const webhook = endpoint.data?.webhook ?? null;
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<string[] | null>(null);
  const [revealed, setRevealed] = useState(false);
  const [removing, setRemoving] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: refills the form only when the saved URL or events change, not on every refetch
  useEffect(() => {
    if (webhook) {
      setUrl(webhook.url);
      setEvents(webhook.events);
    }
  }, [webhook?.url, webhook?.events?.join(",")]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ["webhook"] });
  const done = (text: string) => () => {
    setError(null);
    setNotice(text);
    void refresh();
    void queryClient.invalidateQueries({ queryKey: ["deliveries"] });
  };
  const saveUrl = useMutation({
    mutationFn: () => apiFetch("/api/v1/webhooks", { method: "PUT", json: { url: url.trim() } }),
    onSuccess: done("Endpoint saved."),
    onError: (e) => setError(message(e)),
  });
  const saveEvents = useMutation({
    mutationFn: () => apiFetch("/api/v1/webhooks", { method: "PATCH", json: { events } }),
    onSuccess: done("Event subscription saved."),
    onError: (e) => setError(message(e)),
  });
  const [testEventId, setTestEventId] = useState<string | null>(null);
  const sendTest = useMutation({
    mutationFn: () => apiFetch<{ event: { id: string } }>("/api/v1/webhooks/test", { method: "POST" }),
    onSuccess: ({ event }) => {
      setNotice(null);
      setError(null);
      setTestEventId(event.id);
      void queryClient.invalidateQueries({ queryKey: ["deliveries"] });
    },
    onError: (e) => setError(message(e)),
  });
  const remove = useMutation({
    mutationFn: () => apiFetch("/api/v1/webhooks", { method: "DELETE" }),
    onSuccess: () => {
      setRemoving(false);
      setUrl("");
      done("Endpoint removed.")();
    },
    onError: (e) => setError(message(e)),
  });

  if (endpoint.isPending) return <p className="text-sm text-slate-600">Loading…</p>;
  if (endpoint.isError) return <Alert>{message(endpoint.error)}</Alert>;

  const allEvents = events === null;
  return (
    <div className="space-y-8">
      {error && <Alert>{error}</Alert>}
      {notice && !error && <Alert tone="green">{notice}</Alert>}
      {testEventId && !error && <TestOutcome eventId={testEventId} />}
      <Card className="p-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-lg font-semibold text-slate-900">Endpoint</h2>
          {webhook && (
            <span data-testid="webhook-health">
              <Health webhook={webhook} />
            </span>
          )}
        </div>
        <form
          className="mt-4 flex flex-wrap items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            saveUrl.mutate();
          }}
        >
          <div className="min-w-72 flex-1">
            <Field
              id="webhook-url"
              type="url"
              label="Endpoint URL"
              placeholder="https://example.com/webhooks/adloom"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              required
              hint="A public HTTPS URL that answers 2xx within 5 seconds."
            />
          </div>
          <Button type="submit" disabled={saveUrl.isPending || !url.trim() || url.trim() === webhook?.url} className="mb-5">
            {webhook ? "Change URL" : "Save endpoint"}
          </Button>
        </form>
        {webhook && (
          <div className="mt-2 space-y-4">
            <div>
              <p className="text-sm font-medium text-slate-800">Signing secret</p>
              <div className="mt-1 flex flex-wrap items-center gap-2">
                <code data-testid="webhook-secret" className="rounded bg-slate-100 px-2 py-1 font-mono text-sm">
                  {revealed ? webhook.secret : "whsec_" + "•".repeat(24)}
                </code>
                <Button size="sm" variant="ghost" onClick={() => setRevealed((r) => !r)}>
                  {revealed ? "Hide" : "Reveal"}
                </Button>
                <CopyButton value={webhook.secret} label="Copy secret" />
              </div>
              <p className="mt-1 text-xs text-slate-500">
                Verify the service-signature header: HMAC-SHA256 of “t.raw_body” with this secret. It stays the same when the URL changes.
              </p>
            </div>
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" onClick={() => sendTest.mutate()} disabled={sendTest.isPending}>
                Send test event
              </Button>
              <Button variant="danger-ghost" onClick={() => setRemoving(true)}>
                Remove endpoint
              </Button>
            </div>
          </div>
        )}
      </Card>

      {webhook && (
        <Card className="p-6">
          <h2 className="text-lg font-semibold text-slate-900">Events</h2>
          <div className="mt-3 flex flex-wrap gap-4 text-sm">
            <label className="flex items-center gap-2">
              <input type="radio" className="accent-indigo-600" checked={allEvents} onChange={() => setEvents(null)} /> Every event (including new kinds)
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" className="accent-indigo-600" checked={!allEvents} onChange={() => setEvents(webhook.events ?? [])} /> Only chosen events
            </label>
          </div>
          {!allEvents && (
            <fieldset className="mt-3 grid gap-1.5 sm:grid-cols-2 lg:grid-cols-3">
              <legend className="sr-only">Events to receive</legend>
              {eventTypes.map((t) => (
                <label key={t} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="accent-indigo-600"
                    checked={events!.includes(t)}
                    onChange={(e) => setEvents((ev) => (e.target.checked ? [...(ev ?? []), t] : (ev ?? []).filter((x) => x !== t)))}
                  />
                  <span className="font-mono text-xs">{t}</span>
                </label>
              ))}
            </fieldset>
          )}
          <p className="mt-3 text-xs text-slate-500">Test events are always delivered.</p>
          <Button className="mt-4" size="sm" onClick={() => saveEvents.mutate()} disabled={saveEvents.isPending || (!allEvents && events!.length === 0)}>
            Save events
          </Button>
        </Card>
      )}

      <DeliveryLog eventTypes={["test", ...eventTypes]} onError={setError} />
      <ConfirmDialog
        open={removing}
        title="Remove the endpoint?"
        confirmLabel="Remove"
        busy={remove.isPending}
        onCancel={() => setRemoving(false)}
        onConfirm={() => remove.mutate()}
      >
        Events stop being delivered and pending retries are dropped. The delivery log stays for its 7 days.
      </ConfirmDialog>
    </div>
  );
}

/** What happened to the test event: it is delivered by a job, so the banner waits for its first attempt and tells its outcome. */
function TestOutcome({ eventId }: { eventId: string }) {
  const attempt = useQuery({
    queryKey: ["test-delivery", eventId],
    queryFn: async () => {
      const { deliveries } = await apiFetch<{ deliveries: WebhookDeliveryView[] }>("/api/v1/webhooks/deliveries?eventType=test&limit=20");
      return deliveries.filter((d) => d.eventId === eventId).at(-1) ?? null;
    },
    refetchInterval: (query) => (query.state.data ? false : 1000),
  });
  const d = attempt.data;
  if (!d)
    return (
      <div data-testid="test-outcome" data-outcome="pending">
        <Alert tone="sky">Test event sent; waiting for your endpoint to answer…</Alert>
      </div>
    );
  if (d.outcome === "succeeded")
    return (
      <div data-testid="test-outcome" data-outcome="succeeded">
        <Alert tone="green">
          Test event delivered: your endpoint answered {d.response.status} in {d.durationMs} ms.
        </Alert>
      </div>
    );
  return (
    <div data-testid="test-outcome" data-outcome="failed">
      <Alert>
        Your endpoint did not accept the test event: {d.response.status ? `it answered ${d.response.status}` : (d.error ?? "no answer")}.
        {d.nextRetryAt ? " It is retried automatically; see the delivery log below." : " See the delivery log below."}
      </Alert>
    </div>
  );
}

/** A JSON body indented for reading; anything else as it came. */
function prettyBody(body: string | null): string | null {
  if (!body) return body;
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function DeliveryLog({ eventTypes, onError }: { eventTypes: string[]; onError: (message: string) => void }) {
  const queryClient = useQueryClient();
  const [eventType, setEventType] = useState("");
  const [outcome, setOutcome] = useState("");
  const [open, setOpen] = useState<string | null>(null);
  const params = new URLSearchParams({ limit: "50", ...(eventType ? { eventType } : {}), ...(outcome ? { outcome } : {}) });
  const log = useQuery({
    queryKey: ["deliveries", eventType, outcome],
    queryFn: () => apiFetch<{ deliveries: WebhookDeliveryView[]; nextCursor: string | null }>(`/api/v1/webhooks/deliveries?${params}`),
    refetchInterval: 3000,
  });
  const resend = useMutation({
    mutationFn: (id: string) => apiFetch(`/api/v1/webhooks/deliveries/${encodeURIComponent(id)}`, { method: "POST" }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["deliveries"] });
      void queryClient.invalidateQueries({ queryKey: ["webhook"] });
    },
    onError: (e) => onError(message(e)),
  });
  const deliveries = log.data?.deliveries ?? [];
  // The endpoint's health changes with each delivery: refresh it when a new one appears in the log.
  const newest = deliveries[0]?.id;
  useEffect(() => {
    if (newest) void queryClient.invalidateQueries({ queryKey: ["webhook"] });
  }, [newest, queryClient]);
  return (
    <section aria-labelledby="log-heading">
      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <h2 id="log-heading" className="text-lg font-semibold text-slate-900">
          Delivery log <span className="text-sm font-normal text-slate-500">(last 7 days)</span>
        </h2>
        <div className="flex flex-wrap gap-2">
          <label className="sr-only" htmlFor="log-event">
            Event type
          </label>
          <Select id="log-event" value={eventType} onChange={(e) => setEventType(e.target.value)} className="w-48">
            <option value="">All events</option>
            {eventTypes.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </Select>
          <label className="sr-only" htmlFor="log-outcome">
            Outcome
          </label>
          <Select id="log-outcome" value={outcome} onChange={(e) => setOutcome(e.target.value)} className="w-36">
            <option value="">Any outcome</option>
            <option value="succeeded">Succeeded</option>
            <option value="failed">Failed</option>
          </Select>
        </div>
      </div>
      {log.isError && <Alert>{message(log.error)}</Alert>}
      {log.isSuccess && deliveries.length === 0 && (
        <EmptyState title="No deliveries yet">Send a test event, or upload a file: each attempt to reach your endpoint shows up here.</EmptyState>
      )}
      {deliveries.length > 0 && (
        <Card className="overflow-x-auto">
          <table className="stack-table w-full text-left text-sm">
            <TableHead columns={["Status", "Event", "Time", "Duration", "Response"]} actions />
            <tbody className="divide-y divide-slate-100">
              {deliveries.map((d) => (
                <DeliveryRow
                  key={d.id}
                  d={d}
                  open={open === d.id}
                  onToggle={() => setOpen(open === d.id ? null : d.id)}
                  onResend={() => resend.mutate(d.id)}
                  resending={resend.isPending && resend.variables === d.id}
                />
              ))}
            </tbody>
          </table>
        </Card>
      )}
    </section>
  );
}

function DeliveryRow({
  d,
  open,
  onToggle,
  onResend,
  resending,
}: {
  d: WebhookDeliveryView;
  open: boolean;
  onToggle: () => void;
  onResend: () => void;
  resending: boolean;
}) {
  const clock = useMemberClock();
  return (
    <>
      <tr data-testid="delivery-row" data-outcome={d.outcome} data-event-type={d.eventType}>
        <td data-label="Status" className="px-4 py-3">
          <Badge tone={d.outcome === "succeeded" ? "green" : "rose"}>{d.response.status ?? "no answer"}</Badge>
        </td>
        <td data-label="Event" className="px-4 py-3">
          <p className="font-mono text-xs text-slate-900">{d.eventType}</p>
          <p className="text-xs text-slate-500">
            {d.trigger}
            {d.attempt > 1 ? `, attempt ${d.attempt}` : ""}
          </p>
        </td>
        <td data-label="Time" className="whitespace-nowrap px-4 py-3 text-slate-700">
          {formatDateTime(d.createdAt, clock)}
        </td>
        <td data-label="Duration" className="whitespace-nowrap px-4 py-3 tabular-nums text-slate-700">
          {d.durationMs} ms
        </td>
        <td data-label="Response" className="max-w-xs truncate px-4 py-3 font-mono text-xs text-slate-600" title={d.error ?? d.response.body ?? ""}>
          {d.error ?? d.response.body ?? "—"}
        </td>
        <td className="whitespace-nowrap px-4 py-3 text-right">
          <Button size="sm" variant="ghost" onClick={onToggle} aria-expanded={open}>
            {open ? "Hide" : "Details"}
          </Button>
          <Button size="sm" variant="secondary" onClick={onResend} disabled={resending}>
            {resending ? "Sending…" : "Resend"}
          </Button>
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={6} className="bg-slate-50 px-4 py-3">
            <div className="grid gap-4 lg:grid-cols-2">
              <div>
                <p className="text-xs font-medium uppercase text-slate-500">Request body</p>
                <pre
                  tabIndex={0}
                  className="mt-1 max-h-64 overflow-auto rounded bg-white p-2 font-mono text-xs text-slate-800 ring-1 ring-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-600"
                  data-testid="request-body"
                >
                  {prettyBody(d.request.body)}
                </pre>
              </div>
              <div>
                <p className="text-xs font-medium uppercase text-slate-500">Response (first 4 KB)</p>
                <pre
                  tabIndex={0}
                  className="mt-1 max-h-64 overflow-auto rounded bg-white p-2 font-mono text-xs text-slate-800 ring-1 ring-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-600"
                >
                  {prettyBody(d.response.body) ?? d.error ?? "No response"}
                </pre>
                <p className="mt-2 text-xs text-slate-500">
                  Sent to {d.url} · event {d.eventId}
                  {d.nextRetryAt ? ` · next retry ${formatDateTime(d.nextRetryAt, clock)}` : ""}
                </p>
              </div>
            </div>
          </td>
        </tr>
      )}
    </>
  );
}
