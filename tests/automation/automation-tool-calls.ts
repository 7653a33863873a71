import { expect } from "vitest";
import type { Tenant } from "../helpers/fixtures";
import { callTool, toolResult } from "../tools/helpers";
import { pauseRule, runAutomation } from "./helpers";

/** The automation tools' entries of tests/tools/tool-calls.ts (the full scenarios are tests/automation/*.test.ts). */
export const AUTOMATION_TOOL_CALLS: Record<string, (t: Tenant) => Promise<void>> = {
  async create_rule(t) {
    const { rule } = await toolResult(t.key, "create_rule", pauseRule("promo"));
    expect(rule).toMatchObject({ name: "Pause promo", window: "last_3_days", action: { type: "pause" } });
    expect((await toolResult(t.key, "list_rules", {})).rules.map((r: any) => r.id)).toEqual([rule.id]);
  },
  async update_rule(t) {
    const { rule } = await toolResult(t.key, "create_rule", pauseRule("promo"));
    const { rule: updated } = await toolResult(t.key, "update_rule", { id: rule.id, enabled: false, window: "last_7_days" });
    expect(updated).toMatchObject({ enabled: false, window: "last_7_days", scope: { nameContains: "promo" } });
    expect((await toolResult(t.key, "list_rules", {})).rules[0]).toMatchObject({ enabled: false, window: "last_7_days" });
  },
  async delete_rule(t) {
    const { rule } = await toolResult(t.key, "create_rule", pauseRule("promo"));
    expect(await toolResult(t.key, "delete_rule", { id: rule.id })).toEqual({ ok: true });
    expect((await callTool(t.key, "list_rule_runs", { id: rule.id })).status).toBe(404);
  },
  async list_rules(t) {
    const { rule: a } = await toolResult(t.key, "create_rule", pauseRule("a"));
    const { rule: b } = await toolResult(t.key, "create_rule", pauseRule("b"));
    const page1 = await toolResult(t.key, "list_rules", { limit: 1 });
    expect(page1.rules.map((r: any) => r.id)).toEqual([b.id]);
    expect((await toolResult(t.key, "list_rules", { limit: 1, cursor: page1.nextCursor })).rules.map((r: any) => r.id)).toEqual([a.id]);
  },
  async preview_rule(t) {
    const { rule } = await toolResult(t.key, "create_rule", pauseRule("promo"));
    expect(await toolResult(t.key, "preview_rule", { id: rule.id })).toMatchObject({
      inScope: 0,
      actions: 0,
      matches: [],
      window: { since: expect.any(String), until: expect.any(String) },
    });
  },
  async list_rule_runs(t) {
    const { rule } = await toolResult(t.key, "create_rule", pauseRule("promo"));
    const { rules } = await runAutomation(t.workspaceId);
    const { runs } = await toolResult(t.key, "list_rule_runs", { id: rule.id });
    expect(runs).toEqual([expect.objectContaining({ id: rules[0].run.id, status: "completed", matchCount: 0, actionsTaken: 0 })]);
  },
  async create_automation_flow(t) {
    const { flow, secret } = await toolResult(t.key, "create_automation_flow", {
      name: "Notify",
      trigger: { event: "upload.completed" },
      action: { url: "http://127.0.0.1:9/hook", payload: { file: "{{data.upload.fileName}}" } },
    });
    expect(secret).toMatch(/^adlsig_/);
    expect((await toolResult(t.key, "list_automation_flows", {})).flows).toEqual([
      expect.objectContaining({ id: flow.id, trigger: { event: "upload.completed" } }),
    ]);
  },
  async list_automation_flows(t) {
    const { flow } = await toolResult(t.key, "create_automation_flow", {
      name: "Daily",
      trigger: { schedule: "0 9 * * *", timeZone: "Europe/Berlin" },
      action: { url: "http://127.0.0.1:9/hook", payload: {} },
    });
    expect((await toolResult(t.key, "list_automation_flows", {})).flows).toEqual([
      expect.objectContaining({ id: flow.id, trigger: { schedule: "0 9 * * *", timeZone: "Europe/Berlin" }, lastRun: null }),
    ]);
  },
  async delete_automation_flow(t) {
    const { flow } = await toolResult(t.key, "create_automation_flow", {
      name: "Gone",
      trigger: { event: "ad.created" },
      action: { url: "http://127.0.0.1:9/hook", payload: {} },
    });
    expect(await toolResult(t.key, "delete_automation_flow", { id: flow.id })).toEqual({ ok: true });
    expect((await toolResult(t.key, "list_automation_flows", {})).flows).toEqual([]);
  },
};
