import { Inngest, NonRetriableError } from "inngest";
import { serve } from "inngest/next";
import { describe, expect, it } from "vitest";
import { parseDuration } from "./duration";
import {
  answeredVersion,
  callFunction,
  checkpointReply,
  EMBEDDED_ORIGIN,
  eventApiReply,
  configuredRetries,
  interpret,
  isEventApiRequest,
  OP,
  readCheckpoint,
  syncedConfigs,
  type ExecutionResponse,
  type Op,
  type StepResult,
} from "./inngest-internals";

/**
 * Canary for the Inngest SDK's private executor protocol: every piece inngest-internals.ts relies on,
 * exercised against the installed SDK through a real serve handler, in-process. When one of these fails
 * after an upgrade, the protocol changed: fix packages/job-runner/src/inngest-internals.ts (and only it).
 */
const changed = (what: string) => `Inngest SDK private API changed: ${what}. Everything that relies on it is in packages/job-runner/src/inngest-internals.ts`;

const APP = "canary";
const signingKey = `signkey-prod-${"c0".repeat(32)}`;
const eventApiCalls: { path: string; body: unknown }[] = [];
const checkpoints: { runId: string; ops: unknown[] }[] = [];

// The client's fetch, as embedded mode wires it: the event API and checkpoints answered here.
const clientFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const url = new URL(request.url);
  const checkpoint = await readCheckpoint(url, request.clone());
  if (checkpoint === "malformed") return checkpointReply("malformed");
  if (checkpoint) {
    checkpoints.push(checkpoint);
    return checkpointReply("accepted");
  }
  if (isEventApiRequest(url, request.method)) {
    eventApiCalls.push({ path: url.pathname, body: await request.json() });
    return eventApiReply(["evt_canary"]);
  }
  return Response.json({ error: `unexpected ${request.method} ${url.pathname}` }, { status: 404 });
};

const inngest = new Inngest({ id: APP, isDev: false, signingKey, eventKey: "canary-key", baseUrl: EMBEDDED_ORIGIN, fetch: clientFetch });

const journey = inngest.createFunction({ id: "journey", retries: 2, triggers: [{ event: "canary/go" }] }, async ({ step }) => {
  const a = await step.run("a", () => 1);
  await step.sleep("nap", "1h");
  const b = await step.run("b", () => a + 1);
  await step.sendEvent("emit", { name: "canary/sent", data: { b } });
  return { b };
});
const waiting = inngest.createFunction({ id: "waiting", triggers: [{ event: "canary/wait" }] }, async ({ step }) => {
  return step.waitForEvent("approval", { event: "canary/ok", timeout: "1d", if: "async.data.id == event.data.id" });
});
const failing = inngest.createFunction({ id: "failing", triggers: [{ event: "canary/fail" }] }, async ({ step, event }) => {
  await step.run("boom", () => {
    if (event.data.terminal) throw new NonRetriableError("gives up");
    throw new Error("try again");
  });
});
const scheduled = inngest.createFunction({ id: "scheduled", triggers: [{ cron: "*/5 * * * *" }] }, async () => "tick");

const handler = serve({ client: inngest, functions: [journey, waiting, failing, scheduled], enableUnauthedSync: false });
const post = (req: Request) => handler.POST(req as never, undefined);

const TRIGGER: Record<string, string> = { journey: "canary/go", waiting: "canary/wait", failing: "canary/fail" };
let runs = 0;
function execute(
  fnId: string,
  steps: { stepId: string; result: StepResult }[],
  over: { data?: Record<string, unknown>; checkpoint?: boolean; stepId?: string; runId?: string } = {},
) {
  const event = { id: `evt_${fnId}`, name: TRIGGER[fnId]!, data: (over.data ?? {}) as Record<string, never>, ts: Date.now() };
  return callFunction(post, signingKey, {
    functionId: `${APP}-${fnId}`,
    stepId: over.stepId ?? "step",
    runId: over.runId ?? `run_${++runs}`,
    event,
    steps,
    attempt: 0,
    maxAttempts: 3,
    version: null,
    checkpoint: over.checkpoint,
  });
}

function opsOf(res: ExecutionResponse): Op[] {
  const outcome = interpret(res, new Date());
  expect(outcome.kind, changed(`a step reply should be 206 with ops, got ${res.status} ${JSON.stringify(res.body)}`)).toBe("ops");
  return outcome.kind === "ops" ? outcome.ops : [];
}

const memo = (op: Op, data: unknown = op.data ?? null) => ({ stepId: op.id, result: { type: "data", data } as StepResult });

describe("Inngest private API canary (packages/job-runner/src/inngest-internals.ts)", () => {
  it("reads the function configuration the SDK would sync (getConfig)", () => {
    const [config] = syncedConfigs(journey, APP);
    expect(config?.id, changed("getConfig() no longer answers the full function id")).toBe(`${APP}-journey`);
    expect(config?.triggers, changed("getConfig() triggers changed shape")).toEqual([{ event: "canary/go" }]);
    expect(configuredRetries(config!), changed("getConfig() no longer carries retries at steps.step.retries.attempts")).toBe(2);
    expect(syncedConfigs(scheduled, APP)[0]?.triggers, changed("cron triggers changed shape")).toEqual([{ cron: "*/5 * * * *" }]);
  });

  it("signs executor requests the way the serve handler verifies them", async () => {
    const url = `${EMBEDDED_ORIGIN}/api/inngest?fnId=${APP}-journey&stepId=step`;
    const unsigned = await post(new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }));
    expect(unsigned.status, changed("an unsigned executor request was not refused")).toBe(401);
    const signed = await execute("journey", []);
    expect(signed.status, changed(`a signed executor request was refused (${JSON.stringify(signed.body)})`)).toBe(206);
  });

  it("runs a function step by step from memoized results: StepRun, Sleep, sendEvent through the event API, completion", async () => {
    const first = opsOf(await execute("journey", []));
    const a = first.find((op) => op.op === OP.StepRun || op.op === OP.Step);
    expect(a?.data, changed(`the first reply should run step "a" (ops: ${JSON.stringify(first)})`)).toBe(1);
    expect(a?.displayName, changed("ops no longer carry displayName")).toBe("a");

    const secondRes = await execute("journey", [memo(a!)]);
    expect(answeredVersion(secondRes), changed("replies no longer carry x-inngest-req-version")).not.toBeNull();
    const sleep = opsOf(secondRes).find((op) => op.op === OP.Sleep);
    expect(sleep, changed(`step.sleep should come back as a Sleep op`)).toBeDefined();
    expect(parseDuration(sleep!.name ?? ""), changed(`a Sleep op's name should be its duration, got ${sleep!.name}`)).toBe(3_600_000);

    const third = opsOf(await execute("journey", [memo(a!), memo(sleep!, null)]));
    const b = third.find((op) => op.op === OP.StepRun || op.op === OP.Step);
    expect(b?.data, changed("a memoized step result ({ type: 'data', data }) was not used")).toBe(2);

    const before = eventApiCalls.length;
    const fourth = opsOf(await execute("journey", [memo(a!), memo(sleep!, null), memo(b!)]));
    const emit = fourth.find((op) => op.op === OP.StepRun || op.op === OP.Step);
    expect(eventApiCalls.slice(before), changed("step.sendEvent no longer posts to <baseUrl>/e/<eventKey>")).toEqual([
      { path: "/e/canary-key", body: [expect.objectContaining({ name: "canary/sent", data: { b: 2 } })] },
    ]);
    expect(emit?.data, changed("the event API's { ids } answer no longer reaches the step result")).toEqual({ ids: ["evt_canary"] });

    const done = await execute("journey", [memo(a!), memo(sleep!, null), memo(b!), memo(emit!)]);
    const outcome = interpret(done, new Date());
    const output =
      outcome.kind === "completed" ? outcome.output : outcome.kind === "ops" ? outcome.ops.find((op) => op.op === OP.RunComplete)?.data : undefined;
    expect(output, changed(`a finished function should answer 200 or RunComplete with its output (${done.status} ${JSON.stringify(done.body)})`)).toEqual({
      b: 2,
    });
  });

  it("checkpoints new steps to /v1/checkpoint/<runId>/async and goes on in the same request", async () => {
    const before = checkpoints.length;
    const ops = opsOf(await execute("journey", [], { checkpoint: true, runId: "run_checkpointed" }));
    const received = checkpoints.slice(before);
    expect(
      received.map((c) => c.runId),
      changed("no checkpoint request arrived for the run"),
    ).toEqual(["run_checkpointed"]);
    const checkpointed = received[0]!.ops as Op[];
    expect(
      checkpointed.map((op) => [op.op === OP.Step ? OP.StepRun : op.op, op.data]),
      changed(`checkpoint body changed: ${JSON.stringify(checkpointed)}`),
    ).toEqual([[OP.StepRun, 1]]);
    expect(
      ops.some((op) => op.op === OP.Sleep),
      changed("after an accepted checkpoint the SDK should go on to the sleep"),
    ).toBe(true);
  });

  it("reports waits, retriable step errors and terminal failures as the runner reads them", async () => {
    const [wait] = opsOf(await execute("waiting", []));
    expect([wait?.op, wait?.name, wait?.opts?.timeout, typeof wait?.opts?.if], changed(`waitForEvent op changed: ${JSON.stringify(wait)}`)).toEqual([
      OP.WaitForEvent,
      "canary/ok",
      "1d",
      "string",
    ]);

    const retry = opsOf(await execute("failing", [], { data: { terminal: false } }));
    expect(
      retry.map((op) => op.op),
      changed(`a throwing step should be a StepError op: ${JSON.stringify(retry)}`),
    ).toContain(OP.StepError);

    const terminal = await execute("failing", [], { data: { terminal: true } });
    const outcome = interpret(terminal, new Date());
    const stops = (outcome.kind === "error" && !outcome.retriable) || (outcome.kind === "ops" && outcome.ops.some((op) => op.op === OP.StepFailed));
    expect(stops, changed(`a NonRetriableError should be StepFailed or a no-retry error (${terminal.status} ${JSON.stringify(terminal.body)})`)).toBe(true);
  });
});
