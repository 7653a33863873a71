import type { z } from "zod";
import type { CapabilityId } from "@/lib/auth/capabilities";
import type { Principal } from "@/lib/auth/principal";

/** A JSON-serializable object: what every tool returns (MCP's structuredContent must be an object). */
export type ToolResult = Record<string, unknown>;

/**
 * One capability of the service, callable by name on every surface (REST, MCP, CLI, SDK).
 * The zod schemas are the only description of its arguments and result.
 */
export interface ToolDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** snake_case, verb first: `list_uploads`, `retry_upload`. Never renamed once published. */
  name: string;
  /** Short human title (MCP `annotations.title`). */
  title: string;
  description: string;
  /** Coarse grouping: `account`, `folders`, `uploads`, `creatives`, `copy`, `webhooks`, ... */
  category: string;
  /** What the caller must be allowed; checked inside every call on every surface. */
  capability: CapabilityId;
  /** Only reads data. */
  readOnly: boolean;
  /** Spends money or cannot be undone (deleting, activating, budgets). */
  destructive: boolean;
  /** Arguments; an object schema. Unknown arguments are refused. */
  input: I;
  /** Result shape, when declared (becomes outputSchema). */
  output?: O;
  handler: (principal: Principal, input: z.output<I>) => Promise<ToolResult>;
}

/** Declares a tool with its types checked against its schemas. */
export function defineTool<I extends z.ZodType, O extends z.ZodType>(
  def: Omit<ToolDefinition<I, O>, "handler"> & { handler: (principal: Principal, input: z.output<I>) => Promise<z.input<O>> },
): ToolDefinition {
  return def as unknown as ToolDefinition;
}

/** A catalog entry as served by GET /api/v1/tools. */
export interface ToolDescriptor {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  category: string;
  destructive: boolean;
  readOnly: boolean;
  outputSchema?: Record<string, unknown>;
}
