"use server";
import type { ToolAnswer, ToolInput, ToolName, ToolOutput } from "@/components/dashboard/tool-call";
import { requirePrincipal } from "@/lib/dashboard/current";
import { callTool } from "@/lib/tools/call";
import { planStatus } from "@/lib/dashboard/access";

/**
 * Calls a tool as the signed-in member (the board canvas uses the boards tools and list_creatives): the same catalog entry, with
 * the same permission checks, versions and errors, as POST /api/v1/tools/{name}.
 */
export async function callBoardsTool<N extends ToolName>(name: N, args: ToolInput<N>): Promise<ToolAnswer<ToolOutput<N>>> {
  const principal = await requirePrincipal();
  if (!planStatus(principal.workspace).dashboardAccess)
    return { ok: false, status: 402, code: "subscription_required", message: "Choose a plan to use boards" };
  const outcome = await callTool(principal, name, args);
  return outcome.ok
    ? { ok: true, result: outcome.body.result as unknown as ToolOutput<N> }
    : { ok: false, status: outcome.status, code: outcome.body.error.code, message: outcome.body.error.message };
}
