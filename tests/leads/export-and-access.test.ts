/** The CSV export (content, quoting, streaming headers) and who may read leads, on the shared server. */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { signIn, sessionFetch } from "../dashboard/session";
import { admin, createMemberKey, createTenant } from "../helpers/fixtures";
import { callTool, toolResult } from "../tools/helpers";
import { allLeads, leadForms, pullLeads, seedLeads } from "./helpers";

/** A small RFC 4180 reader (quoted cells may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") row.push(cell), (cell = "");
    else if (c === "\r" && text[i + 1] === "\n") row.push(cell), rows.push(row), (row = []), (cell = ""), i++;
    else cell += c;
  }
  if (cell || row.length) row.push(cell), rows.push(row);
  return rows;
}

async function exportCsv(key: string, query: string): Promise<Response> {
  return fetch(`${inject("baseUrl")}/api/v1/leads/export.csv${query}`, { headers: { Authorization: `Bearer ${key}` } });
}

const TRICKY = {
  full_name: 'Zoë "Zed" O\'Brien, Jr.\nsecond line 日本語 🎉',
  email: '=HYPERLINK("https://evil.example","click")',
  phone_number: "+1 555 0100",
};

describe("the leads CSV export", () => {
  it("streams every lead of the form with its fields, quoted where needed and formulas neutralized", async () => {
    const t = await createTenant();
    const [, quote] = await leadForms(t);
    await seedLeads(t.workspaceId, 3, { form: quote.externalId, fields: TRICKY });
    await seedLeads(t.workspaceId, 2, { form: quote.externalId });
    await pullLeads(t.workspaceId);
    const leads = await allLeads(t.key, { formId: quote.id });
    expect(leads).toHaveLength(5);

    const res = await exportCsv(t.key, `?formId=${quote.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="leads-request-a-quote.csv"');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = parseCsv(bytes.subarray(3).toString("utf8"));
    expect(header).toEqual([
      "lead_id",
      "submitted_at",
      "form_id",
      "form_name",
      "ad_id",
      "ad_name",
      "ad_external_id",
      "platform_lead_id",
      "full_name",
      "email",
      "phone_number",
    ]);
    expect(rows).toHaveLength(5);
    // Oldest first, exactly the stored leads.
    const oldestFirst = [...leads].sort((a, b) => (a.submittedAt === b.submittedAt ? (a.id < b.id ? -1 : 1) : a.submittedAt < b.submittedAt ? -1 : 1));
    expect(rows.map((r) => r[0])).toEqual(oldestFirst.map((l) => l.id));
    for (const [i, lead] of oldestFirst.entries()) {
      const value = (name: string) => lead.fields.find((f: any) => f.name === name).values.join("; ");
      const email = value("email");
      expect(rows[i]).toEqual([
        lead.id,
        lead.submittedAt,
        quote.id,
        "Request a quote",
        "",
        "",
        lead.adExternalId ?? "",
        lead.externalId,
        value("full_name"),
        email.startsWith("=") ? `'${email}` : email,
        value("phone_number"),
      ]);
    }
    const tricky = rows.filter((r) => r[8] === TRICKY.full_name);
    expect(tricky).toHaveLength(3);
    expect(tricky[0]!.slice(8)).toEqual([TRICKY.full_name, `'${TRICKY.email}`, "+1 555 0100"]);

    // All forms: the union of their questions; a date range narrows it.
    const all = parseCsv((await (await exportCsv(t.key, "")).text()).slice(1));
    expect(all).toHaveLength(6);
    const none = parseCsv((await (await exportCsv(t.key, `?formId=${quote.id}&submittedBefore=2000-01-01T00:00:00Z`)).text()).slice(1));
    expect(none).toHaveLength(1);
  }, 120_000);

  it("adloom leads export writes the same CSV to stdout and to --out", async () => {
    const t = await createTenant();
    const [form] = await leadForms(t);
    await seedLeads(t.workspaceId, 4, { form: form.externalId, fields: { full_name: 'Ünal, "U"' } });
    await pullLeads(t.workspaceId);
    const served = Buffer.from(await (await exportCsv(t.key, `?formId=${form.id}`)).arrayBuffer());
    const bin = path.resolve(import.meta.dirname, "../../packages/cli/bin/adloom.js");
    const env = { PATH: process.env.PATH ?? "", HOME: os.tmpdir(), ADLOOM_BASE_URL: inject("baseUrl"), ADLOOM_API_KEY: t.key } as unknown as NodeJS.ProcessEnv;
    const stdout = await promisify(execFile)(process.execPath, [bin, "leads", "export", "--form", form.id], { env, encoding: "buffer", maxBuffer: 1 << 24 });
    expect(Buffer.compare(stdout.stdout, served)).toBe(0);
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "adloom-leads-")), "leads.csv");
    await promisify(execFile)(process.execPath, [bin, "leads", "export", "--form", form.id, "--out", out], { env });
    expect(Buffer.compare(fs.readFileSync(out), served)).toBe(0);
    expect(parseCsv(served.subarray(3).toString("utf8"))).toHaveLength(5);
  }, 120_000);

  it("answers 404 for another workspace's form, 403 for a key without ads_view and for viewers (export, reading and pulling alike), 400 for a bad time", async () => {
    const t = await createTenant();
    const [form] = await leadForms(t);
    await seedLeads(t.workspaceId, 1, { form: form.externalId, fields: { full_name: "Pia Private", email: "pia@example.com" } });
    await pullLeads(t.workspaceId);
    const [lead] = await allLeads(t.key);

    const other = await createTenant();
    const foreign = await exportCsv(other.key, `?formId=${form.id}`);
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error.code).toBe("not_found");
    expect((await callTool(other.key, "list_leads", { formId: form.id })).status).toBe(404);
    expect((await callTool(other.key, "get_lead", { id: lead.id })).status).toBe(404);
    expect(await allLeads(other.key)).toEqual([]);
    // The other workspace's export holds only its own (no) leads.
    expect((await (await exportCsv(other.key, "")).text()).split("\r\n").filter(Boolean)).toHaveLength(1);

    const { key: uploadOnly } = await createMemberKey(t, { role: "admin", scopes: ["upload"] });
    const denied = await exportCsv(uploadOnly, `?formId=${form.id}`);
    expect(denied.status).toBe(403);
    expect((await denied.json()).error.code).toBe("forbidden");
    for (const name of ["list_lead_forms", "list_leads", "get_lead"]) {
      expect((await callTool(uploadOnly, name, name === "get_lead" ? { id: lead.id } : {})).status).toBe(403);
    }
    // People's names and emails need leads.export, whether exported in bulk or read a page (or a lead) at a time:
    // viewers lack it, editors have it (ads_view scope as before). The forms and their counts stay ads.read.
    const forbidden = { error: { code: "forbidden", message: 'Your role (viewer) lacks the permission "leads.export" needed for this action' } };
    for (const scopes of [["ads_view"], undefined]) {
      const { key: viewer } = await createMemberKey(t, { role: "viewer", scopes });
      const viewerExport = await exportCsv(viewer, `?formId=${form.id}`);
      expect(viewerExport.status).toBe(403);
      expect(await viewerExport.json()).toEqual(forbidden);
      for (const [name, args] of [
        ["list_leads", {}],
        ["list_leads", { formId: form.id }],
        ["get_lead", { id: lead.id }],
      ] as const) {
        const refused = await callTool(viewer, name, args);
        expect([refused.status, refused.body], `${name} for a viewer key scoped ${scopes}`).toEqual([403, forbidden]);
      }
      // Pulling stores people's details (a write): the same permission, so viewers may not set it off either.
      const pull = await callTool(viewer, "pull_leads", {});
      expect([pull.status, pull.body], `pull_leads for a viewer key scoped ${scopes}`).toEqual([403, forbidden]);
      expect((await toolResult(viewer, "list_lead_forms", {})).forms.find((f: any) => f.id === form.id)).toMatchObject({ leadCount: 1 });
    }
    const { key: editor } = await createMemberKey(t, { role: "editor", scopes: ["ads_view"] });
    expect((await exportCsv(editor, `?formId=${form.id}`)).status).toBe(200);
    expect((await toolResult(editor, "list_leads", {})).leads.map((l: any) => l.id)).toEqual([lead.id]);
    expect((await toolResult(editor, "get_lead", { id: lead.id })).lead).toEqual(lead);
    expect(await toolResult(editor, "pull_leads", {})).toMatchObject({ stored: 0, error: null });
    // The dashboard's Leads page: a viewer sees the forms and the count, and why not the submissions; an editor sees them.
    for (const role of ["viewer", "editor"] as const) {
      const email = `leads-${role}-${Date.now()}-${process.pid}@example.com`;
      await admin(["member", "add", "--workspace", t.workspaceId, "--email", email, "--role", role]);
      await admin(["user", "password", "--email", email, "--password", "a long enough password"]);
      const { jar } = await signIn(email, "a long enough password");
      const page = await sessionFetch(jar)("/dashboard/leads");
      expect(page.status).toBe(200);
      const text = String(page.body).replace(/<!-- -->/g, "");
      const pullButton = /<button[^>]*>Check for new leads<\/button>/.exec(text)?.[0];
      if (role === "viewer") {
        // Checking for new leads is shown, disabled, with the sentence that says which permission it needs.
        expect(pullButton).toMatch(/ disabled=""/);
        expect(pullButton).toContain('aria-describedby="export-not-allowed"');
        expect(text).toContain("Submissions are not shown to your role");
        expect(text).toContain("Your lead forms have 1 submission;");
        expect(text).toContain("Your role (viewer) can see the lead forms and how many submissions each has, but not the submissions");
        expect(text).not.toContain("Pia Private");
        expect(text).not.toContain("pia@example.com");
      } else {
        expect(pullButton).toBeDefined();
        expect(pullButton).not.toMatch(/ disabled=""/);
        expect(text).toContain("Pia Private");
        expect(text).not.toContain("Submissions are not shown to your role");
      }
    }
    // An editor's key without ads_view: refused for the scope, as the export is.
    const { key: editorUploadOnly } = await createMemberKey(t, { role: "editor", scopes: ["upload"] });
    for (const [name, args] of [
      ["list_leads", {}],
      ["get_lead", { id: lead.id }],
      ["pull_leads", {}],
    ] as const) {
      expect((await callTool(editorUploadOnly, name, args)).body).toEqual({ error: { code: "forbidden", message: 'This API key lacks the scope "ads_view"' } });
    }

    const bad = await exportCsv(t.key, "?submittedAfter=yesterday");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("invalid_request");
  }, 120_000);
});
