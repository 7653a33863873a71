"use client";
import { resultOf, type ToolArgs, type ToolInput, type ToolName, type ToolOutput } from "@/components/dashboard/tool-call";
import { callAutomationTool } from "./actions";

/** Calls an automations tool as the signed-in member (the same tools the API serves); failures throw ApiError. */
export async function tool<N extends ToolName>(name: N, ...[args]: ToolArgs<N>): Promise<ToolOutput<N>> {
  return resultOf(await callAutomationTool(name, args ?? ({} as ToolInput<N>)));
}
