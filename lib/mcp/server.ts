import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import {
  CallToolRequestSchema,
  type CallToolResult,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  type LoggingLevel,
  McpError,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { ASSISTANT_PROMPT, assistantPromptText } from "@/lib/ai/assistant-prompt";
import type { Principal } from "@/lib/auth/principal";
import { log } from "@/lib/log";
import { callTool } from "@/lib/tools/call";
import { catalog, findTool } from "@/lib/tools/catalog";
import type { ToolDescriptor } from "@/lib/tools/types";
import { complete } from "./completion";
import { isLogged, logLevelOf, setLogLevel } from "./log-levels";
import { getPrompt, PromptArgumentError, PROMPTS } from "./prompts";
import { listResources, readResource, RESOURCE_TEMPLATES } from "./resources";
import { ToolCallFailed } from "./tool-json";

/** JSON-RPC error code the spec assigns to `subscription_required` over the agent protocol. */
export const SUBSCRIPTION_REQUIRED_RPC_CODE = -32002;
/** The MCP spec's code for an unknown resource (resources/read). */
const RESOURCE_NOT_FOUND_RPC_CODE = -32002;

const SERVER_INFO = { name: "adloom", title: "Adloom", version: "1.0.0" };

/** Tool categories whose writes change what resources/list shows (creatives come and go). */
const RESOURCE_CATEGORIES = new Set(["creatives", "uploads"]);

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

/** A tool failure met by a resource, prompt or completion, as a JSON-RPC error the client shows. */
function asRpcError(err: unknown, requestId: string, notFoundCode: number = ErrorCode.InvalidParams): unknown {
  if (err instanceof ToolCallFailed) {
    const code = err.code === "not_found" ? notFoundCode : err.code === "invalid_input" ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest;
    return Object.assign(new Error(err.message), { code, data: { code: err.code } });
  }
  if (err instanceof PromptArgumentError) return new McpError(ErrorCode.InvalidParams, err.message);
  if (err instanceof McpError) return err;
  return new McpError(ErrorCode.InternalError, unexpected(err, requestId));
}

/** An unexpected failure is logged with the request id and answered without its internals, as REST answers it. */
function unexpected(err: unknown, requestId: string): string {
  log.error("unhandled error", { requestId, err });
  return `Something went wrong on our side; the request id is ${requestId}`;
}

/**
 * One JSON Schema validator for every server: without it the SDK builds a new Ajv with its formats for
 * each Server, about a tenth of a stateless MCP call's CPU (docs/performance.md, round 9). Ajv caches what
 * it compiles by schema object, so a schema given to it must be a constant (this server compiles none).
 */
let schemaValidator: AjvJsonSchemaValidator | undefined;

/**
 * A fresh MCP server for one HTTP request (stateless), acting as the principal.
 * `blocked` is set when the workspace has no active plan: every request then fails with -32002.
 */
export function createMcpServer(principal: Principal, requestId: string, blocked?: { code: number; message: string }): Server {
  const server = new Server(SERVER_INFO, {
    jsonSchemaValidator: (schemaValidator ??= new AjvJsonSchemaValidator()),
    capabilities: {
      // The catalog and the prompts change only with a deploy; resources change with the library.
      tools: { listChanged: false },
      resources: { listChanged: true, subscribe: false },
      prompts: { listChanged: false },
      logging: {},
      completions: {},
    },
    instructions:
      'Adloom: creative uploads, the creatives library, copy variants, ads, performance and webhooks. Tool failures come back as error results carrying {"error":{"code","message"}}. ' +
      "Resources: adloom://creatives/{id} and the performance reports under adloom://reports/. Prompts: launch_creatives, weekly_performance_review, review_creative.",
  });
  const guard = () => {
    // Not McpError: its message already reads "MCP error -32002: ...", and clients prefix the code again.
    if (blocked) throw Object.assign(new Error(blocked.message), { code: blocked.code, data: { code: "subscription_required" } });
  };
  const logLevel = logLevelOf(principal);

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    guard();
    return { tools: (mcpTools ??= catalog().tools.map(toMcpTool)) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    guard();
    const { name } = request.params;
    const progressToken = request.params._meta?.progressToken;
    const notify = (method: string, params: Record<string, unknown>) =>
      extra.sendNotification({ method, params } as Parameters<typeof extra.sendNotification>[0]).catch(() => undefined);
    const log = (level: LoggingLevel, data: Record<string, unknown>) =>
      isLogged(level, logLevel) ? notify("notifications/message", { level, logger: "adloom.tools", data }) : undefined;
    if (progressToken !== undefined) await notify("notifications/progress", { progressToken, progress: 0, total: 1, message: `Calling ${name}` });
    await log("debug", { tool: name, event: "started" });
    const started = Date.now();
    let outcome: Awaited<ReturnType<typeof callTool>>;
    try {
      outcome = await callTool(principal, name, request.params.arguments ?? {});
    } catch (err) {
      outcome = { ok: false, status: 500, replayed: false, headers: {}, body: { error: { code: "internal_error", message: unexpected(err, requestId) } } };
    }
    const ms = Date.now() - started;
    if (progressToken !== undefined)
      await notify("notifications/progress", { progressToken, progress: 1, total: 1, message: `${name} ${outcome.ok ? "done" : "failed"}` });
    if (outcome.ok) {
      await log("info", { tool: name, event: "succeeded", ms });
      const tool = findTool(name);
      if (tool && !tool.readOnly && RESOURCE_CATEGORIES.has(tool.category)) await notify("notifications/resources/list_changed", {});
      const { result } = outcome.body;
      return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result };
    }
    await log(outcome.status >= 500 ? "error" : "warning", { tool: name, event: "failed", ms, error: outcome.body.error });
    return { isError: true, content: [{ type: "text", text: JSON.stringify(outcome.body) }] };
  });

  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    guard();
    try {
      return await listResources(principal, request.params?.cursor);
    } catch (err) {
      throw asRpcError(err, requestId);
    }
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => {
    guard();
    return { resourceTemplates: RESOURCE_TEMPLATES };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    guard();
    const { uri } = request.params;
    let read;
    try {
      read = await readResource(principal, uri);
    } catch (err) {
      throw asRpcError(err, requestId, RESOURCE_NOT_FOUND_RPC_CODE);
    }
    if (!read) throw Object.assign(new Error(`Resource not found: ${uri}`), { code: RESOURCE_NOT_FOUND_RPC_CODE, data: { uri } });
    return read;
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => {
    guard();
    // The assistant chat as a prompt too (docs/ai.md): the client's model plays the assistant over the same tools.
    return { prompts: [...PROMPTS, { ...ASSISTANT_PROMPT, arguments: [{ name: "question", description: "What to ask first (optional)", required: false }] }] };
  });

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    guard();
    if (request.params.name === ASSISTANT_PROMPT.name) {
      const text = await assistantPromptText(principal, request.params.arguments?.question);
      return { description: ASSISTANT_PROMPT.description, messages: [{ role: "user", content: { type: "text", text } }] };
    }
    let prompt;
    try {
      prompt = await getPrompt(principal, request.params.name, request.params.arguments ?? {});
    } catch (err) {
      throw asRpcError(err, requestId);
    }
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt "${request.params.name}"; prompts/list lists them`);
    return prompt;
  });

  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    guard();
    try {
      return await complete(principal, request.params);
    } catch (err) {
      throw asRpcError(err, requestId);
    }
  });

  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    guard();
    setLogLevel(principal, request.params.level);
    return {};
  });
  return server;
}
