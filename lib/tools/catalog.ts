import { createHash } from "node:crypto";
import { accountTools } from "./definitions/account";
import { adAccountTools } from "./definitions/ad-accounts";
import { adTools } from "./definitions/ads";
import { aiTools } from "./definitions/ai";
import { automationTools } from "./definitions/automation";
import { boardTools } from "./definitions/boards";
import { copyTools } from "./definitions/copy";
import { creativeTools } from "./definitions/creatives";
import { folderTools } from "./definitions/folders";
import { namingTools } from "./definitions/naming";
import { importTools } from "./definitions/import";
import { performanceTools } from "./definitions/performance";
import { leadTools } from "./definitions/leads";
import { taskTools } from "./definitions/tasks";
import { teamTools } from "./definitions/team";
import { moderationTools } from "./definitions/moderation";
import { notificationTools } from "./definitions/notifications";
import { reviewTools } from "./definitions/review";
import { uploadTools } from "./definitions/uploads";
import { webhookTools } from "./definitions/webhooks";
import { toToolJsonSchema } from "./json-schema";
import type { ToolDefinition, ToolDescriptor } from "./types";

/**
 * Every tool of the service. A new capability is added here first (one file per
 * category under ./definitions); REST, MCP, the CLI and the SDK pick it up from here.
 */
export const TOOLS: readonly ToolDefinition[] = [
  ...accountTools,
  ...uploadTools,
  ...importTools,
  ...creativeTools,
  ...namingTools,
  ...copyTools,
  ...folderTools,
  ...webhookTools,
  ...notificationTools,
  ...taskTools,
  ...reviewTools,
  ...adTools,
  ...automationTools,
  ...moderationTools,
  ...performanceTools,
  ...leadTools,
  ...teamTools,
  ...boardTools,
  ...aiTools,
  ...adAccountTools,
];

const TOOL_NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

function indexTools(tools: readonly ToolDefinition[]): Map<string, ToolDefinition> {
  const byName = new Map<string, ToolDefinition>();
  for (const tool of tools) {
    if (!TOOL_NAME.test(tool.name)) throw new Error(`Tool name "${tool.name}" is not snake_case`);
    if (byName.has(tool.name)) throw new Error(`Tool "${tool.name}" is declared twice`);
    if (tool.readOnly && tool.destructive) throw new Error(`Tool "${tool.name}" cannot be both readOnly and destructive`);
    byName.set(tool.name, tool);
  }
  return byName;
}

const byName = indexTools(TOOLS);

/** The tool of that name, or undefined. */
export function findTool(name: string): ToolDefinition | undefined {
  return byName.get(name);
}

/** Mutating tools document the idempotencyKey argument every tool call accepts. */
const IDEMPOTENCY_KEY_SCHEMA = {
  type: "string",
  minLength: 1,
  maxLength: 200,
  description: "Replays the first result for 24 hours when the same call is repeated with this key; one key serves one tool and one set of arguments",
};

/** One catalog entry as the API serves it. */
export function describeTool(tool: ToolDefinition): ToolDescriptor {
  const inputSchema = toToolJsonSchema(tool.input, "input");
  if (inputSchema.type !== "object") throw new Error(`Tool "${tool.name}": the input schema must be an object`);
  if (!tool.readOnly) {
    inputSchema.properties = { ...(inputSchema.properties as object | undefined), idempotencyKey: IDEMPOTENCY_KEY_SCHEMA };
  }
  return {
    name: tool.name,
    description: tool.description,
    inputSchema,
    category: tool.category,
    destructive: tool.destructive,
    readOnly: tool.readOnly,
    ...(tool.output ? { outputSchema: toToolJsonSchema(tool.output, "output") } : {}),
  };
}

let cached: { tools: ToolDescriptor[]; json: string; etag: string } | undefined;

/** The whole catalog, its serialized form and its strong ETag (a hash of the content: equal across restarts and instances). */
export function catalog(): { tools: ToolDescriptor[]; json: string; etag: string } {
  if (!cached) {
    const tools = TOOLS.map(describeTool);
    const json = JSON.stringify({ tools });
    cached = { tools, json, etag: `"${createHash("sha256").update(json).digest("base64url").slice(0, 32)}"` };
  }
  return cached;
}

/** Lists the catalog (what GET /api/v1/tools and MCP tools/list serve). */
export async function listTools(): Promise<{ tools: ToolDescriptor[] }> {
  return { tools: catalog().tools };
}
