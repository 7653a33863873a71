import { expect, inject } from "vitest";
import { api, createMemberKey, type Tenant } from "../helpers/fixtures";
import { leadForms, seedLeads } from "../leads/helpers";
import { callTool, toolResult } from "./helpers";

/** The team, plan and lead-pull tools' REST scenarios (spread into tests/tools/tool-calls.ts). */
export const TEAM_TOOL_CALLS: Record<string, (t: Tenant) => Promise<void>> = {
  async invite_member(t) {
    const email = `invitee-${Date.now()}@example.com`;
    const { invite } = await toolResult(t.key, "invite_member", { email, role: "editor" });
    expect(invite).toMatchObject({ id: expect.stringMatching(/^inv_/), url: expect.stringMatching(/\/invite\/[\w-]+$/), emailed: expect.any(Boolean) });
    // The link is the invite: its page names the workspace's invite for that email and role.
    const page = await fetch(inject("baseUrl") + new URL(invite.url).pathname);
    expect(page.status).toBe(200);
    const editor = await createMemberKey(t, { role: "editor" });
    expect((await callTool(editor.key, "invite_member", { email: "x@example.com", role: "viewer" })).body.error.code).toBe("forbidden");
    expect((await callTool(t.key, "invite_member", { email: "not-an-email", role: "viewer" })).body.error.code).toBe("invalid_input");
  },

  async revoke_invite(t) {
    const { invite } = await toolResult(t.key, "invite_member", { email: `revoked-${Date.now()}@example.com`, role: "viewer" });
    expect(await toolResult(t.key, "revoke_invite", { id: invite.id })).toEqual({ ok: true });
    expect((await callTool(t.key, "revoke_invite", { id: invite.id })).body.error.code).toBe("not_found");
  },

  async update_member(t) {
    const member = await createMemberKey(t, { role: "viewer" });
    expect((await callTool(member.key, "create_folder", { name: "Not yet" })).body.error.code).toBe("forbidden");
    expect(await toolResult(t.key, "update_member", { userId: member.userId, role: "editor", folderIds: [] })).toEqual({ ok: true });
    expect((await callTool(member.key, "create_folder", { name: "Now allowed" })).status).toBe(200);
    expect((await callTool(t.key, "update_member", { userId: t.ownerUserId, role: "viewer", folderIds: [] })).body.error.code).toBe("conflict");
  },

  async remove_member(t) {
    const member = await createMemberKey(t, { role: "editor" });
    expect((await api(member.key)("/api/v1/me")).status).toBe(200);
    expect(await toolResult(t.key, "remove_member", { userId: member.userId })).toEqual({ ok: true });
    expect((await api(member.key)("/api/v1/me")).status).toBe(401);
  },

  async change_plan(t) {
    const cancelled = await toolResult(t.key, "change_plan", { plan: null });
    expect(cancelled.status).toMatchObject({ state: "lapsed", apiAccess: false });
    // Without a plan the key stops working, so the plan cannot be bought back with it.
    expect((await callTool(t.key, "change_plan", { plan: "pro" })).body.error.code).toBe("subscription_required");
  },

  async pull_leads(t) {
    const [form] = await leadForms(t);
    await seedLeads(t.workspaceId, 2, { form: form.externalId });
    const pull = await toolResult(t.key, "pull_leads", {});
    expect(pull).toMatchObject({ stored: 2, error: null });
    expect((await toolResult(t.key, "list_leads", { formId: form.id })).leads).toHaveLength(2);
    expect((await toolResult(t.key, "pull_leads", {})).stored).toBe(0);
  },
};
