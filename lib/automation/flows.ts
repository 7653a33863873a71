import type { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { authorize } from "@/lib/auth/authorize";
import { roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import { emitEvent } from "@/lib/events/emit";
import type { AutomationFlow } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { configuredUrlPolicy } from "@/lib/webhooks/attempt";
import { isSuccess, sendSignedRequest } from "@/lib/webhooks/send-request";
import { newSigningSecret } from "@/lib/webhooks/sign";
import { resolveDeliverableUrl, WebhookUrlError } from "@/lib/webhooks/url-policy";
import { type FlowActionSchema, type FlowConditionSchema, type FlowTriggerSchema, parseFlowCron, type FlowCondition } from "./flow-schema";
import { conditionHolds, renderPayload, type FlowTrigger } from "./flow-template";

export interface FlowOut {
  id: string;
  name: string;
  trigger: { event: string } | { schedule: string; timeZone: string };
  condition: FlowCondition | null;
  action: { url: string; payload: Record<string, unknown> };
  createdAt: string;
  lastRun: { status: string; responseStatus: number | null; error: string | null; at: string } | null;
}

function toFlow(row: AutomationFlow, lastRun: FlowOut["lastRun"] = null): FlowOut {
  return {
    id: row.id,
    name: row.name,
    trigger: row.triggerKind === "event" ? { event: row.eventType! } : { schedule: row.cron!, timeZone: row.timeZone ?? "UTC" },
    condition: (row.condition as FlowCondition | null) ?? null,
    action: { url: row.url, payload: row.payload as Record<string, unknown> },
    createdAt: row.createdAt.toISOString(),
    lastRun,
  };
}

export interface CreateFlowInput {
  name: string;
  trigger: z.output<typeof FlowTriggerSchema>;
  condition?: z.output<typeof FlowConditionSchema> | null;
  action: z.output<typeof FlowActionSchema>;
}

/** Saves a flow; answers its signing secret once (deliveries are signed like webhooks, with this secret). */
export async function createFlow(principal: Principal, input: CreateFlowInput): Promise<{ flow: FlowOut; secret: string }> {
  // A flow sends workspace events to a URL of the author's choosing, as the webhook endpoint does: it needs what
  // setting that endpoint needs (owner or admin, an unscoped key, two-factor where the workspace asks for it).
  authorize(principal, "webhooks.write");
  try {
    await resolveDeliverableUrl(input.action.url, configuredUrlPolicy());
  } catch (err) {
    if (err instanceof WebhookUrlError) throw new AppError("invalid_input", `Invalid input: action.url: ${err.message}`);
    throw err;
  }
  const secret = newSigningSecret();
  const schedule = "schedule" in input.trigger ? input.trigger : null;
  const row = await getDb().automationFlow.create({
    data: {
      id: newId("flow"),
      workspaceId: principal.workspaceId,
      name: input.name,
      triggerKind: schedule ? "schedule" : "event",
      eventType: "event" in input.trigger ? input.trigger.event : null,
      cron: schedule?.schedule ?? null,
      timeZone: schedule ? (schedule.timeZone ?? "UTC") : null,
      condition: input.condition ? (input.condition as object) : undefined,
      url: input.action.url,
      payload: input.action.payload as object,
      secret,
      // A schedule fires from its next occurrence on, never for the past.
      lastFiredAt: schedule ? new Date() : null,
      createdById: principal.userId,
    },
  });
  return { flow: toFlow(row), secret };
}

export async function listFlows(principal: Principal, input: { limit: number; cursor?: string }): Promise<{ flows: FlowOut[]; nextCursor: string | null }> {
  const db = getDb();
  const rows = await db.automationFlow.findMany({
    where: { workspaceId: principal.workspaceId, ...afterCursor(input.cursor) },
    orderBy: NEWEST_FIRST,
    take: input.limit + 1,
  });
  const page = toPage(rows, input.limit);
  const flows: FlowOut[] = [];
  for (const row of page.items) {
    const last = await db.automationFlowRun.findFirst({ where: { flowId: row.id }, orderBy: { createdAt: "desc" } });
    flows.push(
      toFlow(
        row,
        last ? { status: last.status, responseStatus: last.responseStatus, error: last.error, at: (last.finishedAt ?? last.createdAt).toISOString() } : null,
      ),
    );
  }
  return { flows, nextCursor: page.nextCursor };
}

export async function deleteFlow(principal: Principal, input: { id: string }): Promise<{ ok: true }> {
  const db = getDb();
  const row = await db.automationFlow.findFirst({ where: { id: input.id, workspaceId: principal.workspaceId } });
  if (!row) throw notFound("Automation flow");
  await db.$transaction([db.automationFlowRun.deleteMany({ where: { flowId: row.id } }), db.automationFlow.delete({ where: { id: row.id } })]);
  return { ok: true };
}

/** What a flow POSTs at most: its template is capped at 16 KB, but a template copying the trigger's data many times is not. */
export const FLOW_BODY_MAX_BYTES = 256 * 1024;

export type FlowRunResult = { flowId: string; status: "sent" | "skipped" | "failed" | "gone"; responseStatus: number | null; error: string | null };

/**
 * Runs a flow once for one trigger (an event id, or a schedule occurrence): the condition, then the
 * signed POST; on success `automation.event`. The (flow, trigger) run is recorded once, so a retried
 * job or a second instance does not send again after a success. Throws on a failed POST (the job retries).
 */
export async function runFlow(flowId: string, trigger: FlowTrigger): Promise<FlowRunResult> {
  const db = getDb();
  const flow = await db.automationFlow.findUnique({ where: { id: flowId } });
  if (!flow) return { flowId, status: "gone", responseStatus: null, error: null };
  await db.automationFlowRun.createMany({ data: [{ id: newId("frun"), workspaceId: flow.workspaceId, flowId, triggerKey: trigger.id }], skipDuplicates: true });
  const run = await db.automationFlowRun.findUniqueOrThrow({ where: { flowId_triggerKey: { flowId, triggerKey: trigger.id } } });
  if (run.status === "sent" || run.status === "skipped") return { flowId, status: run.status, responseStatus: run.responseStatus, error: null };
  if (!conditionHolds(flow.condition as FlowCondition | null, trigger)) {
    await db.automationFlowRun.update({ where: { id: run.id }, data: { status: "skipped", finishedAt: new Date() } });
    return { flowId, status: "skipped", responseStatus: null, error: null };
  }
  // Failures a retry cannot mend: the run fails with the reason, and the job is not asked to try again.
  const refuse = async (error: string): Promise<FlowRunResult> => {
    await db.automationFlowRun.update({ where: { id: run.id }, data: { status: "failed", responseStatus: null, error, finishedAt: new Date() } });
    return { flowId, status: "failed", responseStatus: null, error };
  };
  // A flow sends as its author, as a rule acts as its author: once they may no longer manage webhooks here, it stops.
  const author = await db.membership.findUnique({
    where: { workspaceId_userId: { workspaceId: flow.workspaceId, userId: flow.createdById } },
    select: { role: true },
  });
  if (!author || !roleAllows(author.role, "webhooks.manage")) {
    return refuse("The flow's author is no longer an owner or admin of this workspace: an owner or admin must create it again");
  }
  const data = renderPayload(flow.payload, trigger) as Record<string, unknown>;
  const body = JSON.stringify(data);
  const bytes = Buffer.byteLength(body);
  if (bytes > FLOW_BODY_MAX_BYTES) {
    return refuse(
      `The filled-in payload is ${Math.ceil(bytes / 1024)} KB, over the ${FLOW_BODY_MAX_BYTES / 1024} KB a flow sends: copy less of the trigger's data into it`,
    );
  }
  // The run id is the delivery's event id (webhook-id): the same across retries, so receivers can deduplicate.
  const sent = await sendSignedRequest(
    { url: flow.url, secret: flow.secret, body, eventId: run.id, eventType: "automation.flow", deliveryId: newId("fdl") },
    configuredUrlPolicy(),
  );
  if (!isSuccess(sent.outcome)) {
    const error = sent.outcome.error ?? `HTTP ${sent.outcome.status}`;
    await db.automationFlowRun.update({
      where: { id: run.id },
      data: { status: "failed", responseStatus: sent.outcome.status, error, finishedAt: new Date() },
    });
    throw new Error(`Flow ${flow.name}: ${error}`);
  }
  await db.automationFlowRun.update({
    where: { id: run.id },
    data: { status: "sent", responseStatus: sent.outcome.status, error: null, finishedAt: new Date() },
  });
  await emitEvent({
    workspaceId: flow.workspaceId,
    type: "automation.event",
    dedupeKey: `automation.event:${run.id}`,
    data: { automationId: flow.id, automationName: flow.name, event: trigger.type, data },
  });
  return { flowId, status: "sent", responseStatus: sent.outcome.status, error: null };
}

/**
 * The schedule flows whose occurrence has come since they last fired (of one workspace, or all):
 * each is claimed by moving its lastFiredAt conditionally, so two instances fire it once. Missed
 * occurrences while nothing ran fire once, as the latest.
 */
export async function claimDueSchedules(now: Date, workspaceId?: string): Promise<{ workspaceId: string; flowId: string; trigger: FlowTrigger }[]> {
  const db = getDb();
  const flows = await db.automationFlow.findMany({ where: { triggerKind: "schedule", ...(workspaceId ? { workspaceId } : {}) } });
  const due: { workspaceId: string; flowId: string; trigger: FlowTrigger }[] = [];
  for (const flow of flows) {
    const cron = parseFlowCron(flow.cron!, flow.timeZone ?? undefined);
    let occurrence: Date | null = null;
    let next = cron.nextRun(flow.lastFiredAt ?? flow.createdAt);
    for (let i = 0; next && next <= now && i < 10_000; i++) {
      occurrence = next;
      next = cron.nextRun(next);
    }
    if (!occurrence) continue;
    const { count } = await db.automationFlow.updateMany({ where: { id: flow.id, lastFiredAt: flow.lastFiredAt }, data: { lastFiredAt: occurrence } });
    if (!count) continue;
    const at = occurrence.toISOString();
    due.push({
      workspaceId: flow.workspaceId,
      flowId: flow.id,
      trigger: { id: `schedule:${at}`, type: "schedule", createdAt: at, data: { schedule: flow.cron, firedAt: at } },
    });
  }
  return due;
}
