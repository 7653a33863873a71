"use server";
import type { ToolAnswer, ToolInput, ToolName, ToolOutput } from "@/components/dashboard/tool-call";
import { requirePrincipal } from "@/lib/dashboard/current";
import { callTool, toolCategory } from "@/lib/tools/call";
import { planStatus } from "@/lib/dashboard/access";

/**
 * Calls an automations tool as the signed-in member: the same catalog entry, with the same
 * permission checks and errors, as POST /api/v1/tools/{name}.
 */
export async function callAutomationTool<N extends ToolName>(name: N, args: ToolInput<N>): Promise<ToolAnswer<ToolOutput<N>>> {
  const principal = await requirePrincipal();
  if (!planStatus(principal.workspace).dashboardAccess)
    return { ok: false, status: 402, code: "subscription_required", message: "Choose a plan to use automation" };
  const category = toolCategory(name);
  if (category !== "automations") return { ok: false, status: 404, code: "not_found", message: `Unknown tool "${name}"` };
  const outcome = await callTool(principal, name, args);
  // defineTool type-checks each handler against its output schema, which the SDK's types are generated from.
  return outcome.ok
    ? { ok: true, result: outcome.body.result as unknown as ToolOutput<N> }
    : { ok: false, status: outcome.status, code: outcome.body.error.code, message: outcome.body.error.message };
}
