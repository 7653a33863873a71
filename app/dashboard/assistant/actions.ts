"use server";
import { revalidatePath } from "next/cache";
import type { ToolAnswer, ToolOutput } from "@/components/dashboard/tool-call";
import { requirePrincipal } from "@/lib/dashboard/current";
import { callTool } from "@/lib/tools/call";

/** Saves the brand voice and naming convention through the catalog's update_ai_settings, as the signed-in member. */
export async function saveAiSettings(input: { brandVoice: string; namingConvention: string }): Promise<ToolAnswer<ToolOutput<"update_ai_settings">>> {
  const principal = await requirePrincipal();
  const outcome = await callTool(principal, "update_ai_settings", { brandVoice: input.brandVoice || null, namingConvention: input.namingConvention || null });
  if (!outcome.ok) return { ok: false, status: outcome.status, code: outcome.body.error.code, message: outcome.body.error.message };
  revalidatePath("/dashboard/assistant");
  return { ok: true, result: outcome.body.result as unknown as ToolOutput<"update_ai_settings"> };
}
