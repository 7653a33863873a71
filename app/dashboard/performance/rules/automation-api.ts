"use client";
import { ApiError } from "@/components/dashboard/api";
import { callAutomationTool } from "./actions";

/** Calls an automations tool as the signed-in member (the same tools the API serves); failures throw ApiError. */
export async function tool<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const answer = await callAutomationTool(name, args);
  if (!answer.ok) throw new ApiError(answer.status, answer.code, answer.message);
  return answer.result as T;
}
