"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { Field, SelectField, TextArea } from "@/components/ui/field";
import { Alert, Badge, Card, EmptyState, Section } from "@/components/ui/misc";
import type { ToolInput } from "@/components/dashboard/tool-call";
import { tool } from "./automation-api";

type FlowEvent = Extract<ToolInput<"create_automation_flow">["trigger"], { event: unknown }>["event"];

// The event kinds a flow may start on (automation.event cannot: a flow's own event would loop).
const EVENTS: FlowEvent[] = [
  "rule.triggered",
  "ad.created",
  "upload.completed",
  "upload.failed",
  "creative.status_changed",
  "test.completed",
  "lead.received",
  "review.comment",
  "review.status_changed",
  "review.version_uploaded",
  "review.link_viewed",
  "team.member_joined",
  "task.assigned",
  "task.comment",
  "task.due",
];

const message = (e: unknown) => (e instanceof ApiError ? e.message : "Something went wrong. Please try again.");

export function FlowsSection({ canManage }: { canManage: boolean }) {
  const flows = useQuery({ queryKey: ["flows"], queryFn: () => tool("list_automation_flows", { limit: 100 }) });
  const client = useQueryClient();
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const remove = async (id: string) => {
    try {
      await tool("delete_automation_flow", { id });
      await client.invalidateQueries({ queryKey: ["flows"] });
    } catch (err) {
      setError(message(err));
    }
  };
  return (
    <Section id="flows" title="Flows">
      {flows.error && <Alert>{message(flows.error)}</Alert>}
      {error && <Alert>{error}</Alert>}
      {canManage ? (
        <FlowForm onCreated={(s) => setSecret(s)} />
      ) : (
        <p id="flows-reason" data-testid="flows-disabled-reason" className="text-sm text-slate-700">
          Creating and deleting flows needs &quot;rules.manage&quot; and webhook management (owners and admins).
        </p>
      )}
      {secret && (
        <div className="mt-3">
          <Alert tone="green">
            Flow saved. Its signing secret, shown only now: <code className="break-all">{secret}</code>
          </Alert>
        </div>
      )}
      {flows.data && flows.data.flows.length === 0 && (
        <EmptyState title="No flows yet">A flow POSTs a signed JSON object to your URL when an event happens or on a schedule.</EmptyState>
      )}
      <ul className="mt-4 space-y-3" aria-label="Flows">
        {(flows.data?.flows ?? []).map((f) => (
          <li key={f.id}>
            <Card className="flex flex-wrap items-start justify-between gap-2 p-4">
              <div className="min-w-0">
                <h3 className="font-semibold text-slate-900">{f.name}</h3>
                <p className="mt-1 text-sm break-all text-slate-600">
                  {"event" in f.trigger ? `On ${f.trigger.event}` : `Schedule ${f.trigger.schedule} (${f.trigger.timeZone})`}
                  {f.condition ? ` if ${f.condition.path} ${f.condition.operator} ${JSON.stringify(f.condition.value ?? "")}` : ""} → {f.action.url}
                </p>
              </div>
              <div className="flex items-center gap-2">
                {f.lastRun ? (
                  <Badge tone={f.lastRun.status === "sent" ? "green" : f.lastRun.status === "failed" ? "rose" : "slate"}>{f.lastRun.status}</Badge>
                ) : (
                  <Badge>not run</Badge>
                )}
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => void remove(f.id)}
                  aria-label={`Delete flow ${f.name}`}
                  disabled={!canManage}
                  aria-describedby={canManage ? undefined : "flows-reason"}
                >
                  Delete
                </Button>
              </div>
            </Card>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function FlowForm({ onCreated }: { onCreated: (secret: string) => void }) {
  const client = useQueryClient();
  const [name, setName] = useState("");
  const [kind, setKind] = useState<"event" | "schedule">("event");
  const [event, setEvent] = useState<FlowEvent>("rule.triggered");
  const [schedule, setSchedule] = useState("0 9 * * 1");
  const [url, setUrl] = useState("");
  const [payload, setPayload] = useState('{\n  "text": "Rule {{data.rule.name}} changed {{data.rule.matchCount}} objects"\n}');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      setError("The object to send is not valid JSON");
      return;
    }
    setBusy(true);
    try {
      const { secret } = await tool("create_automation_flow", {
        name,
        trigger: kind === "event" ? { event } : { schedule },
        action: { url, payload: parsed as Record<string, unknown> },
      });
      setError(null);
      setName("");
      onCreated(secret);
      await client.invalidateQueries({ queryKey: ["flows"] });
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} aria-label="New flow" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <div className="grid gap-3 sm:grid-cols-3">
        <Field id="flow-name" label="Flow name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        <SelectField id="flow-kind" label="Trigger" value={kind} onChange={(e) => setKind(e.target.value as "event" | "schedule")}>
          <option value="event">An event</option>
          <option value="schedule">A schedule</option>
        </SelectField>
        {kind === "event" ? (
          <SelectField id="flow-event" label="Event" value={event} onChange={(e) => setEvent(e.target.value as FlowEvent)}>
            {EVENTS.map((e) => (
              <option key={e}>{e}</option>
            ))}
          </SelectField>
        ) : (
          <Field
            id="flow-schedule"
            label="Cron (UTC)"
            hint="minute hour day month weekday"
            value={schedule}
            onChange={(e) => setSchedule(e.target.value)}
            required
          />
        )}
      </div>
      <Field
        id="flow-url"
        label="POST to URL"
        type="url"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        required
        placeholder="https://hooks.example.com/adloom"
      />
      <div className="space-y-1">
        <label htmlFor="flow-payload" className="block text-sm font-medium text-slate-800">
          JSON object to send
        </label>
        <TextArea
          id="flow-payload"
          rows={4}
          value={payload}
          onChange={(e) => setPayload(e.target.value)}
          className="font-mono"
          aria-describedby="flow-payload-desc"
        />
        <p id="flow-payload-desc" className="text-xs text-slate-600">
          {"{{data.field}}"} in a string is filled from the event.
        </p>
      </div>
      {error && <Alert>{error}</Alert>}
      <div className="flex justify-end">
        <Button type="submit" size="sm" disabled={busy || !name.trim() || !url.trim()}>
          Create flow
        </Button>
      </div>
    </form>
  );
}
