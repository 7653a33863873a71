import type { Principal } from "@/lib/auth/principal";
import { callTool } from "@/lib/tools/call";

/** A tool failure met while serving a resource, prompt or completion (its envelope code and message). */
export class ToolCallFailed extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Runs a read-only tool for MCP resources, prompts and completions, so they see exactly what the
 * tool would show this principal (permissions, scopes, folder access) and nothing else.
 */
export async function readThroughTool<T>(principal: Principal, name: string, args: Record<string, unknown>): Promise<T> {
  const outcome = await callTool(principal, name, args);
  if (!outcome.ok) throw new ToolCallFailed(outcome.body.error.code, outcome.body.error.message);
  return outcome.body.result as T;
}
