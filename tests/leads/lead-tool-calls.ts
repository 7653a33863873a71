import { expect } from "vitest";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { callTool, toolResult } from "../tools/helpers";
import { leadForms, pullLeads, seedLeads } from "./helpers";

/** The leads tools' REST scenarios (spread into tests/tools/tool-calls.ts). */
export const LEAD_TOOL_CALLS: Record<string, (t: Tenant) => Promise<void>> = {
  async list_lead_forms(t) {
    const forms = await leadForms(t);
    expect(forms.map((f: any) => f.name)).toEqual(["Newsletter sign-up", "Request a quote"]);
    expect(forms[1]).toMatchObject({
      platform: "platform_a",
      questions: ["full_name", "email", "phone_number"],
      status: "active",
      leadCount: 0,
      lastPolledAt: null,
    });
    await seedLeads(t.workspaceId, 3, { form: forms[1].externalId });
    await pullLeads(t.workspaceId);
    const after = await leadForms(t);
    expect(after.map((f: any) => [f.id, f.leadCount])).toEqual([
      [forms[0].id, 0],
      [forms[1].id, 3],
    ]);
    expect(after[1].lastPolledAt).toEqual(expect.any(String));
  },

  async list_leads(t) {
    const [form] = await leadForms(t);
    await seedLeads(t.workspaceId, 3, { form: form.externalId });
    await pullLeads(t.workspaceId);
    const page1 = await toolResult(t.key, "list_leads", { formId: form.id, limit: 2 });
    expect(page1.leads).toHaveLength(2);
    const page2 = await toolResult(t.key, "list_leads", { formId: form.id, limit: 2, cursor: page1.nextCursor });
    expect(page2).toMatchObject({ nextCursor: null });
    const all = [...page1.leads, ...page2.leads];
    expect(new Set(all.map((l: any) => l.id)).size).toBe(3);
    const times = all.map((l: any) => l.submittedAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all[0]).toMatchObject({ form: { formId: form.id, name: "Newsletter sign-up" }, fields: [{ name: "full_name" }, { name: "email" }] });
    const later = await toolResult(t.key, "list_leads", { submittedAfter: times[0] });
    expect(later.leads.map((l: any) => l.submittedAt).every((s: string) => s >= times[0])).toBe(true);
    const other = await createTenant();
    expect((await callTool(other.key, "list_leads", { formId: form.id })).status).toBe(404);
  },

  async get_lead(t) {
    const [form] = await leadForms(t);
    await seedLeads(t.workspaceId, 1, { form: form.externalId, fields: { full_name: "Ada Lovelace" } });
    await pullLeads(t.workspaceId);
    const [listed] = (await toolResult(t.key, "list_leads", {})).leads;
    const { lead } = await toolResult(t.key, "get_lead", { id: listed.id });
    expect(lead).toEqual(listed);
    expect(lead.fields[0]).toEqual({ name: "full_name", values: ["Ada Lovelace"] });
    const other = await createTenant();
    expect((await callTool(other.key, "get_lead", { id: listed.id })).body.error.code).toBe("not_found");
  },
};
