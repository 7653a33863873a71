import { z } from "zod";
import { defineOperation } from "@/lib/http/operation";
import { parseJsonText, readBodyText } from "@/lib/http/request-body";
import { json } from "@/lib/http/responses";
import { assertTextInput, TEXT_INPUT_LIMITS } from "@/lib/text-input";
import { callTool } from "@/lib/tools/call";
import { catalog } from "@/lib/tools/catalog";
import { invalidInput, TOOL_ERROR_CODES } from "@/lib/tools/errors";

const ToolSchema = z
  .object({
    name: z.string().describe("Tool name, used in POST /api/v1/tools/{name}"),
    description: z.string().describe("What the tool does"),
    inputSchema: z.record(z.string(), z.unknown()).describe("JSON Schema (2020-12) of the tool's arguments"),
    category: z.string().describe("Coarse grouping, e.g. folders, uploads, webhooks"),
    destructive: z.boolean().describe("True when the tool spends money or cannot be undone"),
    readOnly: z.boolean().describe("True for tools that only read data"),
    outputSchema: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("Present for tools that declare a result shape: the same dialect, with nullable values also marked `nullable: true`"),
  })
  .meta({ id: "Tool" });

/** Whether an If-None-Match header names this ETag (weak comparison, as RFC 9110 prescribes for it). */
function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

export const listToolsOperation = defineOperation({
  method: "GET",
  path: "/api/v1/tools",
  operationId: "listTools",
  summary: "The tool catalog",
  description:
    "Every capability of the service as a tool. The response carries a strong `ETag` (a hash of the catalog); send it back in `If-None-Match` to get 304 while the catalog is unchanged.",
  tag: "Tools",
  capability: "tools.list",
  allowSession: true,
  success: { status: 200, description: "The catalog", schema: z.object({ tools: z.array(ToolSchema) }) },
  otherAnswers: {
    empty: { "304": "Not modified: the catalog still has the ETag sent in `If-None-Match`" },
    headers: { "If-None-Match": "The `ETag` of a catalog response; 304 while the catalog is unchanged" },
  },
  handler: async ({ request }) => {
    const { json: body, etag } = catalog();
    const headers = { ETag: etag, "Cache-Control": "private, no-cache" };
    if (matchesEtag(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
    return new Response(body, { status: 200, headers: { "Content-Type": "application/json; charset=utf-8", ...headers } });
  },
});

export const callToolOperation = defineOperation({
  method: "POST",
  path: "/api/v1/tools/{name}",
  operationId: "callTool",
  summary: "Call a tool by name",
  description:
    "The body is the tool's arguments (a JSON object per its inputSchema; may be empty). `idempotencyKey` in the arguments acts like the `Idempotency-Key` header; a key serves one tool and one set of arguments. Failures use the tool error codes: invalid_input (message starts `Invalid input:`), tool_error, limit_exceeded, not_connected, plan_required, forbidden, two_factor_required, not_found, conflict, upstream_error, upstream_busy.",
  tag: "Tools",
  capability: "tools.list",
  // The dashboard's pages call tools too (same-origin, with its session; cross-site writes are refused).
  allowSession: true,
  viaToolCall: true,
  params: z.object({ name: z.string().describe("Tool name") }),
  streamedBody: {
    contentType: "application/json",
    schema: { type: "object", description: "The tool's arguments per its inputSchema", additionalProperties: true },
  },
  success: { status: 200, description: "The tool's result", schema: z.object({ result: z.unknown() }) },
  errors: [...TOOL_ERROR_CODES],
  handler: async ({ principal, params, request }) => {
    // The tool's name is checked here; its arguments inside callTool (each part of the request once).
    assertTextInput(params, "path parameters", { maxStringLength: TEXT_INPUT_LIMITS.maxUrlValueLength });
    let args: unknown;
    try {
      args = parseJsonText(await readBodyText(request));
    } catch (err) {
      throw invalidInput((err as Error).message);
    }
    const outcome = await callTool(principal, params.name, args, { idempotencyKey: request.headers.get("idempotency-key") });
    return json(outcome.body, outcome.status, {
      ...(outcome.ok ? {} : outcome.headers),
      ...(outcome.replayed ? { "Idempotent-Replayed": "true" } : {}),
    });
  },
});
