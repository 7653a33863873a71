import { inject } from "vitest";
import { admin, type Tenant } from "../helpers/fixtures";
import { toolResult } from "../tools/helpers";

/** `sandbox leads`: `count` submissions on the workspace's platform_a form (the first unless `form` names its platform id). */
export async function seedLeads(
  workspaceId: string,
  count: number,
  options: { form?: string; sameTime?: boolean; fields?: Record<string, string>; dataDir?: string } = {},
): Promise<{ formId: string; leads: number }> {
  return admin<any>(
    [
      "sandbox",
      "leads",
      "--workspace",
      workspaceId,
      "--count",
      String(count),
      ...(options.form ? ["--form", options.form] : []),
      ...(options.sameTime ? ["--timestamps", "same"] : []),
      ...(options.fields ? ["--fields", JSON.stringify(options.fields)] : []),
    ],
    options.dataDir ?? inject("dataDir"),
  );
}

/** `leads pull`: one poll of the workspace's forms now (optionally with a smaller per-form cap). */
export async function pullLeads(workspaceId: string, options: { limit?: number; dataDir?: string } = {}): Promise<any> {
  return admin<any>(
    ["leads", "pull", "--workspace", workspaceId, ...(options.limit ? ["--limit", String(options.limit)] : [])],
    options.dataDir ?? inject("dataDir"),
  );
}

/** The tenant's lead forms (list_lead_forms). */
export async function leadForms(t: Pick<Tenant, "key">): Promise<any[]> {
  return (await toolResult(t.key, "list_lead_forms", {})).forms;
}

/** Every stored lead of the tenant (all pages of list_leads), newest first. */
export async function allLeads(key: string, args: Record<string, unknown> = {}): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | undefined;
  do {
    const page = await toolResult(key, "list_leads", { ...args, limit: 200, ...(cursor ? { cursor } : {}) });
    out.push(...page.leads);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}
