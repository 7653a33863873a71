import type { ToolInput, ToolName, ToolOutput } from "@adloom/sdk";
import { ApiError, apiFetch } from "./api";

// Types only: the SDK's generated per-tool input and result types, so no SDK code enters the client bundle.
export type { ToolInput, ToolName, ToolOutput };

/** The arguments of a tool: optional when the tool has no required argument. */
// biome-ignore lint/complexity/noBannedTypes: "{} extends T" asks whether T has no required key
export type ToolArgs<N extends ToolName> = {} extends ToolInput<N> ? [args?: ToolInput<N>] : [args: ToolInput<N>];

/**
 * Calls a tool of the catalog with the dashboard's session (POST /api/v1/tools/{name}) and returns its
 * result, typed by the tool's name from the catalog's generated schemas.
 */
export async function callTool<N extends ToolName>(name: N, ...[args]: ToolArgs<N>): Promise<ToolOutput<N>> {
  return (await apiFetch<{ result: ToolOutput<N> }>(`/api/v1/tools/${encodeURIComponent(name)}`, { method: "POST", json: args ?? {} })).result;
}

/** What a dashboard server action that calls a tool answers: the tool's result, or its error envelope's parts. */
export type ToolAnswer<R> = { ok: true; result: R } | { ok: false; status: number; code: string; message: string };

/** The result of a server action's answer; an error answer throws ApiError, as callTool does. */
export function resultOf<R>(answer: ToolAnswer<R>): R {
  if (!answer.ok) throw new ApiError(answer.status, answer.code, answer.message);
  return answer.result;
}
