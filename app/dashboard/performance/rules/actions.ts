"use server";
import { requirePrincipal } from "@/lib/dashboard/current";
import { callTool } from "@/lib/tools/call";
import { findTool } from "@/lib/tools/catalog";
import { planStatus } from "@/lib/workspaces/plan";

export type ToolAnswer = { ok: true; result: unknown } | { ok: false; status: number; code: string; message: string };

/**
 * Calls an automations tool as the signed-in member: the same catalog entry, with the same
 * permission checks and errors, as POST /api/v1/tools/{name}.
 */
export async function callAutomationTool(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const principal = await requirePrincipal();
  if (!planStatus(principal.workspace).dashboardAccess) return { ok: false, status: 402, code: "subscription_required", message: "Choose a plan to use automation" };
  const tool = findTool(name);
  if (!tool || tool.category !== "automations") return { ok: false, status: 404, code: "not_found", message: `Unknown tool "${name}"` };
  const outcome = await callTool(principal, name, args);
  return outcome.ok ? { ok: true, result: outcome.body.result } : { ok: false, status: outcome.status, code: outcome.body.error.code, message: outcome.body.error.message };
}
