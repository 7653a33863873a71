import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "@/lib/auth/principal";
import { callTool } from "@/lib/tools/call";
import { catalog, findTool } from "@/lib/tools/catalog";
import type { ToolDescriptor } from "@/lib/tools/types";

/** JSON-RPC error code the spec assigns to `subscription_required` over the agent protocol. */
export const SUBSCRIPTION_REQUIRED_RPC_CODE = -32002;

const SERVER_INFO = { name: "adloom", title: "Adloom", version: "1.0.0" };

function toMcpTool(descriptor: ToolDescriptor): Tool {
  const tool = findTool(descriptor.name)!;
  return {
    name: descriptor.name,
    title: tool.title,
    description: descriptor.description,
    inputSchema: descriptor.inputSchema as Tool["inputSchema"],
    ...(descriptor.outputSchema ? { outputSchema: descriptor.outputSchema as Tool["outputSchema"] } : {}),
    // Hints for the client's UI and confirmations; every call is still authorized server-side.
    annotations: { title: tool.title, readOnlyHint: descriptor.readOnly, destructiveHint: descriptor.destructive, openWorldHint: false },
  };
}

let mcpTools: Tool[] | undefined;

/**
 * A fresh MCP server for one HTTP request (stateless), acting as the principal.
 * `blocked` is set when the workspace has no active plan: every request then fails with -32002.
 */
export function createMcpServer(principal: Principal, blocked?: { code: number; message: string }): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions:
      'Adloom: creative uploads, the creatives library, copy variants, folders and webhooks. Tool failures come back as error results carrying {"error":{"code","message"}}.',
  });
  const guard = () => {
    // Not McpError: its message already reads "MCP error -32002: ...", and clients prefix the code again.
    if (blocked) throw Object.assign(new Error(blocked.message), { code: blocked.code, data: { code: "subscription_required" } });
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    guard();
    return { tools: (mcpTools ??= catalog().tools.map(toMcpTool)) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    guard();
    const outcome = await callTool(principal, request.params.name, request.params.arguments ?? {});
    if (outcome.ok) {
      const { result } = outcome.body;
      return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result };
    }
    return { isError: true, content: [{ type: "text", text: JSON.stringify(outcome.body) }] };
  });
  return server;
}
