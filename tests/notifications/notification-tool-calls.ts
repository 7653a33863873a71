import { expect } from "vitest";
import { createMemberKey, createTenant, type Tenant } from "../helpers/fixtures";
import { callTool, toolResult } from "../tools/helpers";
import { receiverServer } from "../tools/tool-calls";

/** The notification tools, one REST scenario each (tests/tools/every-tool.test.ts). */
export const NOTIFICATION_TOOL_CALLS: Record<string, (t: Tenant) => Promise<void>> = {
  async get_my_notification_preferences(t) {
    const result = await toolResult(t.key, "get_my_notification_preferences", {});
    // The shared test server has no SMTP_URL: email waits in the outbox, and the answer says so.
    expect(result.emailTransport).toBe("outbox");
    expect(result.preferences.map((p: any) => p.kind)).toContain("review_requested");
    expect(result.preferences.every((p: any) => p.email === true && p.label && p.who)).toBe(true);
  },

  async set_my_notification_preferences(t) {
    const editor = await createMemberKey(t, { role: "editor" });
    const changed = await toolResult(editor.key, "set_my_notification_preferences", { email: { task_due: false, mention: false } });
    expect(changed.preferences.filter((p: any) => !p.email).map((p: any) => p.kind)).toEqual(["mention", "task_due"]);
    const back = await toolResult(editor.key, "set_my_notification_preferences", { email: { mention: true } });
    expect(back.preferences.filter((p: any) => !p.email).map((p: any) => p.kind)).toEqual(["task_due"]);
    // Per person: the owner's choices are untouched.
    expect((await toolResult(t.key, "get_my_notification_preferences", {})).preferences.every((p: any) => p.email)).toBe(true);
    expect((await callTool(editor.key, "set_my_notification_preferences", { email: {} })).status).toBe(400);
    expect((await callTool(editor.key, "set_my_notification_preferences", { email: { nothing: true } })).status).toBe(400);
  },

  async get_slack_channel(t) {
    expect(await toolResult(t.key, "get_slack_channel", {})).toEqual({ slack: null });
    const viewer = await createMemberKey(t, { role: "viewer" });
    expect((await callTool(viewer.key, "get_slack_channel", {})).status).toBe(403);
  },

  async set_slack_channel(t) {
    const receiver = await receiverServer();
    try {
      const { slack } = await toolResult(t.key, "set_slack_channel", { url: `${receiver.url}/services/T0/B0/xyz`, kinds: ["mention", "rule_triggered"] });
      expect(slack).toMatchObject({ kinds: ["mention", "rule_triggered"], urlHint: expect.stringMatching(/\/hook\/…$/) });
      expect((await toolResult(t.key, "get_slack_channel", {})).slack).toEqual(slack);
      const bad = await callTool(t.key, "set_slack_channel", { url: "ftp://example.com/hook" });
      expect(bad.status).toBe(400);
      const other = await createTenant();
      expect(await toolResult(other.key, "get_slack_channel", {})).toEqual({ slack: null });
    } finally {
      await receiver.close();
    }
  },

  async delete_slack_channel(t) {
    expect((await callTool(t.key, "delete_slack_channel", {})).status).toBe(404);
    const receiver = await receiverServer();
    try {
      await toolResult(t.key, "set_slack_channel", { url: `${receiver.url}/services/a` });
      expect(await toolResult(t.key, "delete_slack_channel", {})).toEqual({ ok: true });
      expect(await toolResult(t.key, "get_slack_channel", {})).toEqual({ slack: null });
    } finally {
      await receiver.close();
    }
  },

  async send_slack_test(t) {
    const receiver = await receiverServer();
    try {
      await toolResult(t.key, "set_slack_channel", { url: `${receiver.url}/services/a` });
      expect(await toolResult(t.key, "send_slack_test", {})).toEqual({ sent: true });
      expect(receiver.bodies.at(-1)).toMatchObject({ text: expect.stringContaining("Adloom test message"), blocks: [{ type: "section" }] });
    } finally {
      await receiver.close();
    }
    // The receiver is gone: Slack's side failing is a clear 502, not a 5xx of ours.
    const gone = await callTool(t.key, "send_slack_test", {});
    expect(gone.status).toBe(502);
    expect(gone.body.error.code).toBe("upstream_error");
  },
};
