import type { ToolInput, ToolName, ToolOutput } from "@adloom/sdk";
import { revalidatePath } from "next/cache";
import { callTool } from "@/lib/tools/call";
import { planStatus } from "@/lib/workspaces/plan";
import type { ActionResult } from "./action-result";
import { requirePrincipal } from "./current";

/**
 * Runs a tool of the catalog as the signed-in member, for a dashboard server action: the same
 * `callTool` path as REST, MCP, the CLI and the SDK (authorization, the text check, validation,
 * events and audit), so an action called directly with input the tool refuses gets the tool's
 * refusal. Expected failures come back as the form's message; the path is revalidated on success.
 */
export async function runTool<N extends ToolName>(name: N, args: ToolInput<N>, revalidate?: string): Promise<ActionResult<ToolOutput<N>>> {
  const principal = await requirePrincipal();
  // The dashboard's own rule (the trial counts): a workspace without it may only choose a plan again.
  if (name !== "change_plan" && !planStatus(principal.workspace).dashboardAccess) {
    return { ok: false, error: "This workspace's trial has ended; choose a plan to continue", code: "subscription_required" };
  }
  const outcome = await callTool(principal, name, args);
  if (!outcome.ok) return { ok: false, error: outcome.body.error.message, code: outcome.body.error.code };
  if (revalidate) revalidatePath(revalidate);
  // defineTool type-checks each handler against its output schema, which the SDK's types are generated from.
  return { ok: true, data: outcome.body.result as unknown as ToolOutput<N> };
}
