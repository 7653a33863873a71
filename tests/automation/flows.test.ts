import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeSignature } from "@/lib/webhooks/sign";
import { createMemberKey, createTenant } from "../helpers/fixtures";
import { until } from "../helpers/wait";
import { callTool, toolResult } from "../tools/helpers";
import { advance } from "../ads/helpers";
import { startReceiver, type ReceivedRequest, type Receiver } from "../webhooks/helpers/receiver";
import { activeAds, pauseRule, runAutomation, tenantWithEndpoint } from "./helpers";
import { allLeads, pullLeads, seedLeads } from "../leads/helpers";

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

function verifySigned(req: ReceivedRequest, secret: string): void {
  const header = String(req.headers["service-signature"]);
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) ?? [];
  expect(v1).toBe(computeSignature(secret, Number(t), req.body));
  expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(120);
}

/** The flow's run once it has ended: a run is listed as pending while its payload is filled in and sent. */
async function finishedRun(key: string) {
  return until(async () => {
    const run = (await toolResult(key, "list_automation_flows", {})).flows[0].lastRun;
    return run && run.status !== "pending" && run;
  }, "the flow's run to end");
}

describe("automation flows", () => {
  it("an event-triggered flow POSTs its signed, templated object when the condition holds, and emits automation.event", async () => {
    const { tenant: t, received } = await tenantWithEndpoint(receiver);
    const flowPath = `/flow/${t.workspaceId}`;
    const { flow, secret } = await toolResult(t.key, "create_automation_flow", {
      name: "Tell the channel",
      trigger: { event: "rule.triggered" },
      condition: { path: "data.rule.matchCount", operator: "gte", value: 1 },
      action: {
        url: receiver.url.replace(/\/hooks$/, flowPath),
        payload: { text: "Rule {{data.rule.name}} paused {{data.rule.matchCount}} ads", matches: "{{data.rule.matches}}", fixed: 7 },
      },
    });
    expect(secret).toMatch(/^adlsig_/);
    expect(flow).toMatchObject({ name: "Tell the channel", trigger: { event: "rule.triggered" }, lastRun: null });

    await activeAds(t, ["Flow cut"]);
    await advance(t.workspaceId, 24);
    await toolResult(t.key, "create_rule", pauseRule("flow cut"));
    await runAutomation(t.workspaceId);

    const [post] = await until(
      async () => receiver.requests.filter((r) => r.path === flowPath).length >= 1 && receiver.requests.filter((r) => r.path === flowPath),
      "the flow's POST",
    );
    verifySigned(post!, secret);
    expect(JSON.parse(post!.body)).toEqual({
      text: "Rule Pause flow cut paused 1 ads",
      matches: [{ name: "Flow cut", campaignName: expect.stringMatching(/^Campaign /) }],
      fixed: 7,
    });

    const [event] = await until(async () => received("automation.event").length >= 1 && received("automation.event"), "automation.event");
    expect(event.data).toEqual({ automationId: flow.id, automationName: "Tell the channel", event: "rule.triggered", data: JSON.parse(post!.body) });
    await new Promise((r) => setTimeout(r, 1500));
    // automation.event triggers no flow: one POST, one automation.event.
    expect(receiver.requests.filter((r) => r.path === flowPath)).toHaveLength(1);
    expect(received("automation.event")).toHaveLength(1);
    expect((await toolResult(t.key, "list_automation_flows", {})).flows[0].lastRun).toMatchObject({ status: "sent", responseStatus: 200 });
  }, 240_000);

  it("a flow on lead.received fires for each pulled lead (events stored in the leads' own transaction start flows too)", async () => {
    const { tenant: t } = await tenantWithEndpoint(receiver);
    const flowPath = `/leads/${t.workspaceId}`;
    await toolResult(t.key, "create_automation_flow", {
      name: "New lead to the CRM",
      trigger: { event: "lead.received" },
      action: { url: receiver.url.replace(/\/hooks$/, flowPath), payload: { lead: "{{data.lead.leadId}}", form: "{{data.form.name}}" } },
    });
    await seedLeads(t.workspaceId, 2);
    expect((await pullLeads(t.workspaceId)).stored).toBe(2);
    const posts = await until(async () => {
      const got = receiver.requests.filter((r) => r.path === flowPath);
      return got.length >= 2 && got;
    }, "a flow POST per lead");
    const leadIds = (await allLeads(t.key)).map((l) => l.id).sort();
    expect(posts.map((p) => JSON.parse(p.body).lead).sort()).toEqual(leadIds);
  }, 120_000);

  it("a flow whose POST keeps failing holds back no other flow of the same event; its failure is recorded", async () => {
    const { tenant: t } = await tenantWithEndpoint(receiver);
    const failing = `/failing/${t.workspaceId}`;
    const working = `/working/${t.workspaceId}`;
    receiver.respondWith((req) => ({ status: req.path === failing ? 500 : 200 }));
    try {
      // The failing flow is made first, so under one job per event it ran first and its retries held the other back.
      for (const [name, path] of [
        ["Broken CRM", failing],
        ["Working CRM", working],
      ]) {
        await toolResult(t.key, "create_automation_flow", {
          name,
          trigger: { event: "lead.received" },
          action: { url: receiver.url.replace(/\/hooks$/, path!), payload: { lead: "{{data.lead.leadId}}" } },
        });
      }
      await seedLeads(t.workspaceId, 1);
      expect((await pullLeads(t.workspaceId)).stored).toBe(1);
      // A job's first retry comes 10 s after its failure: the working flow's POST comes well before.
      await until(async () => receiver.requests.some((r) => r.path === working), "the working flow's POST", 8_000);
      expect(receiver.requests.filter((r) => r.path === failing).length).toBeGreaterThanOrEqual(1);
      // The working run is marked sent after its response is read, so it may still be pending for a moment.
      const statuses = await until(async () => {
        const flows = (await toolResult(t.key, "list_automation_flows", {})).flows;
        const byName = Object.fromEntries(flows.map((f: any) => [f.name, f.lastRun?.status]));
        return byName["Working CRM"] !== "pending" && byName;
      }, "the working flow's run to end");
      expect(statuses).toEqual({ "Broken CRM": "failed", "Working CRM": "sent" });
    } finally {
      receiver.respondWith(() => ({ status: 200 }));
    }
  }, 120_000);

  it("a payload that fills in to more than 256 KB is not sent: the run fails with the reason, once", async () => {
    const { tenant: t } = await tenantWithEndpoint(receiver);
    const path = `/huge/${t.workspaceId}`;
    // Within the template's 16 KB, but each "{{data}}" copies the whole lead.
    await toolResult(t.key, "create_automation_flow", {
      name: "Copies everything",
      trigger: { event: "lead.received" },
      action: { url: receiver.url.replace(/\/hooks$/, path), payload: { copies: Array.from({ length: 1400 }, () => "{{data}}") } },
    });
    await seedLeads(t.workspaceId, 1);
    expect((await pullLeads(t.workspaceId)).stored).toBe(1);
    const lastRun = await finishedRun(t.key);
    expect(lastRun).toMatchObject({ status: "failed", responseStatus: null, error: expect.stringMatching(/over the 256 KB a flow sends/) });
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.requests.filter((r) => r.path === path)).toHaveLength(0);
  }, 120_000);

  it("a flow stops sending once its author is no longer an owner or admin of the workspace", async () => {
    const { tenant: t } = await tenantWithEndpoint(receiver);
    const path = `/former/${t.workspaceId}`;
    const author = await createMemberKey(t, { role: "admin" });
    await toolResult(author.key, "create_automation_flow", {
      name: "An admin's CRM feed",
      trigger: { event: "lead.received" },
      action: { url: receiver.url.replace(/\/hooks$/, path), payload: { lead: "{{data.lead.leadId}}" } },
    });
    await toolResult(t.key, "update_member", { userId: author.userId, role: "editor", folderIds: [] });
    await seedLeads(t.workspaceId, 1);
    expect((await pullLeads(t.workspaceId)).stored).toBe(1);
    const lastRun = await finishedRun(t.key);
    expect(lastRun).toMatchObject({ status: "failed", error: expect.stringMatching(/author is no longer an owner or admin/) });
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.requests.filter((r) => r.path === path)).toHaveLength(0);
  }, 120_000);

  it("a scheduled flow fires at its next occurrence, once", async () => {
    const { tenant: t, received } = await tenantWithEndpoint(receiver, ["automation.event"]);
    const flowPath = `/schedule/${t.workspaceId}`;
    const { flow, secret } = await toolResult(t.key, "create_automation_flow", {
      name: "Every minute",
      trigger: { schedule: "* * * * *" },
      action: { url: receiver.url.replace(/\/hooks$/, flowPath), payload: { kind: "{{type}}", at: "{{createdAt}}" } },
    });
    expect(flow.trigger).toEqual({ schedule: "* * * * *", timeZone: "UTC" });
    // The embedded runner's minute job fires it; the operator command may fire it first. Either way, once per occurrence.
    const posts = await until(
      async () => {
        await runAutomation(t.workspaceId);
        const got = receiver.requests.filter((r) => r.path === flowPath);
        return got.length >= 1 && got;
      },
      "the scheduled POST",
      90_000,
    );
    verifySigned(posts[0]!, secret);
    const body = JSON.parse(posts[0]!.body);
    expect(body.kind).toBe("schedule");
    expect(body.at).toMatch(/:00\.000Z$/);
    const event = await until(async () => received("automation.event")[0], "automation.event");
    expect(event.data).toMatchObject({ automationId: flow.id, event: "schedule", data: body });
    const sameOccurrence = receiver.requests.filter((r) => r.path === flowPath && JSON.parse(r.body).at === body.at);
    expect(sameOccurrence).toHaveLength(1);
    await toolResult(t.key, "delete_automation_flow", { id: flow.id });
    expect((await toolResult(t.key, "list_automation_flows", {})).flows).toEqual([]);
  }, 150_000);

  it("refuses bad flows with clear 400s; only admins may create them", async () => {
    const t = await createTenant();
    const url = receiver.url;
    const bad = async (args: object, pattern: RegExp) => {
      const res = await callTool(t.key, "create_automation_flow", { name: "x", trigger: { event: "rule.triggered" }, action: { url, payload: {} }, ...args });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(pattern);
    };
    await bad({ trigger: { event: "automation.event" } }, /^Invalid input: trigger/);
    await bad({ trigger: { schedule: "every day" } }, /^Invalid input: trigger/);
    await bad({ trigger: { schedule: "61 * * * *" } }, /^Invalid input: trigger/);
    await bad({ condition: { path: "data..x", operator: "eq", value: 1 } }, /^Invalid input: condition\.path: must be a dotted field path/);
    await bad({ condition: { path: "data.x", operator: "gt", value: "big" } }, /^Invalid input: condition\.value: gt compares numbers/);
    await bad({ action: { url: "ftp://example.com", payload: {} } }, /^Invalid input: action\.url: /);
    expect((await toolResult(t.key, "list_automation_flows", {})).flows).toEqual([]);
    const editor = await createMemberKey(t, { role: "editor" });
    const denied = await callTool(editor.key, "create_automation_flow", { name: "x", trigger: { event: "rule.triggered" }, action: { url, payload: {} } });
    expect(denied.status).toBe(403);
    // An admin's key limited to the rules scope may manage rules, but not send the workspace's events to a URL:
    // like setting the webhook endpoint, that needs an unscoped key.
    const rulesOnly = await createMemberKey(t, { role: "admin", scopes: ["rules"] });
    const scoped = await callTool(rulesOnly.key, "create_automation_flow", { name: "x", trigger: { event: "lead.received" }, action: { url, payload: {} } });
    expect([scoped.status, scoped.body.error.code]).toEqual([403, "forbidden"]);
    expect(scoped.body.error.message).toMatch(/unscoped/);
    expect((await toolResult(t.key, "list_automation_flows", {})).flows).toEqual([]);
    const other = await createTenant();
    const { flow } = await toolResult(t.key, "create_automation_flow", { name: "x", trigger: { event: "ad.created" }, action: { url, payload: {} } });
    expect((await callTool(other.key, "delete_automation_flow", { id: flow.id })).status).toBe(404);
  });
});
