import { z } from "zod";
import { parseOrRefuse } from "@/lib/errors";
import { assertTextInput, TEXT_INPUT_LIMITS } from "@/lib/text-input";
import { callTool } from "@/lib/tools/call";
import type { ToolDefinition } from "@/lib/tools/types";
import { type MultipartUploadForm, multipartDigest, multipartFiles } from "./multipart-files";
import { defineOperation, type OperationDef } from "./operation";
import { parseJsonText, readBodyText } from "./request-body";
import { json } from "./responses";

type Shape = Record<string, z.ZodType>;

function objectShape(tool: ToolDefinition): Shape {
  const shape = (tool.input as unknown as { shape?: Shape }).shape;
  if (!shape) throw new Error(`Tool "${tool.name}": a REST binding needs an object input schema`);
  return shape;
}

function isNumeric(field: z.ZodType): boolean {
  const type = (z.toJSONSchema(field, { io: "input", unrepresentable: "any" }) as { type?: unknown }).type;
  return type === "integer" || type === "number";
}

function parsePart(schema: z.ZodType | undefined, value: unknown, where: string): Record<string, unknown> {
  return schema ? ((parseOrRefuse(schema, value, where) ?? {}) as Record<string, unknown>) : {};
}

/** All-optional objects may be sent as no body at all. */
function bodySchema(shape: Shape): z.ZodType {
  const object = z.object(shape);
  return Object.values(shape).every((field) => field.safeParse(undefined).success) ? object.optional() : object;
}

/**
 * The REST operation that serves a tool per its `rest` binding. It is a tool call (`callTool`):
 * one authorization, one text check, one idempotency fingerprint, the same path as
 * POST /api/v1/tools/{name}, MCP and the dashboard. What stays REST's own: the tool's argument
 * schemas validate each part of the request (path, query, JSON body) with REST's messages and
 * codes (`invalid_request`, the domain's codes; the tool error mapping applies to tool calls only),
 * and `respond`/`statusOf` shape the answer.
 */
export function operationFromTool(tool: ToolDefinition): OperationDef<any, any, any, any> {
  const rest = tool.rest;
  if (!rest) throw new Error(`Tool "${tool.name}" has no REST binding`);
  const shape = objectShape(tool);
  const pathShape: Shape = {};
  const queryShape: Shape = {};
  const bodyShape: Shape = {};
  const pathArg: Record<string, string> = {};
  for (const [arg, field] of Object.entries(shape)) {
    const source = rest.args?.[arg] ?? (rest.method === "GET" ? "query" : "body");
    if (typeof source === "object") {
      pathShape[source.path] = field;
      pathArg[source.path] = arg;
    } else if (source === "query") queryShape[arg] = field;
    else bodyShape[arg] = field;
  }
  const hasPath = Object.keys(pathShape).length > 0;
  const hasQuery = Object.keys(queryShape).length > 0;
  const hasBody = Object.keys(bodyShape).length > 0 && !rest.multipartUpload;
  const numericQuery = Object.keys(queryShape).filter((key) => isNumeric(queryShape[key]!));

  const respond = (result: unknown) => ({
    status: rest.statusOf ? rest.statusOf(result) : rest.status,
    body: rest.respond ? rest.respond(result) : result,
  });

  const params = hasPath ? z.object(pathShape) : undefined;
  const query = hasQuery ? z.object(queryShape) : undefined;
  const body = hasBody ? bodySchema(bodyShape) : undefined;
  const mutating = rest.method !== "GET";

  return defineOperation<any, any, any, any>({
    method: rest.method,
    path: rest.path,
    operationId: rest.operationId,
    summary: rest.summary,
    description: rest.description,
    tag: rest.tag,
    capability: tool.capability,
    allowSession: true,
    viaToolCall: true,
    params,
    query,
    body,
    streamedBody: rest.multipartUpload && { contentType: "multipart/form-data", schema: rest.multipartUpload.schema },
    success: { status: rest.status, description: rest.successDescription, schema: rest.responseSchema ?? tool.output },
    errors: rest.errors,
    otherAnswers: rest.otherAnswers,
    handler: async ({ principal, params: rawParams, query: rawQuery, request }) => {
      // Read and checked inside the call, after authorization, as a tool call's arguments are.
      const readArgs = async () => {
        const rawBody = body ? parseJsonText(await readBodyText(request)) : undefined;
        // Text input is checked once, before any schema or query sees it (lib/text-input.ts).
        assertTextInput(rawParams, "path parameters", { maxStringLength: TEXT_INPUT_LIMITS.maxUrlValueLength });
        assertTextInput(rawQuery, "query parameters", { maxStringLength: TEXT_INPUT_LIMITS.maxUrlValueLength });
        assertTextInput(rawBody, "request body", { maxStringLength: TEXT_INPUT_LIMITS.maxJsonStringLength });
        // A query string carries numbers as text; convert them the way z.coerce would.
        const queryValues: Record<string, unknown> = { ...rawQuery };
        for (const key of numericQuery) if (typeof rawQuery[key] === "string") queryValues[key] = Number(rawQuery[key]);
        const pathValues = parsePart(params, rawParams, "path parameters");
        const args: Record<string, unknown> = { ...parsePart(query, queryValues, "query parameters"), ...parsePart(body, rawBody, "request body") };
        for (const [name, arg] of Object.entries(pathArg)) args[arg] = pathValues[name];
        return args;
      };
      const upload = rest.multipartUpload;
      const idempotencyKey = mutating ? request.headers.get("idempotency-key") : null;
      let form: MultipartUploadForm | null = null;
      const outcome = await callTool(principal, tool.name, undefined, {
        idempotencyKey,
        rest: {
          readArgs,
          run:
            upload &&
            (async (caller) => {
              form = multipartFiles(request, { digest: idempotencyKey !== null });
              return (await upload.run(caller, form)) as Record<string, unknown>;
            }),
          // A streamed body cannot be hashed before it is read: its length and type stand in for it, and its digest
          // (what the form says, whatever its boundary) is compared once read.
          streamFingerprint: upload && `${request.headers.get("content-type")?.split(";")[0]}|${request.headers.get("content-length") ?? ""}`,
          streamedBody: upload && { ofRun: () => form?.digest() ?? null, ofRepeat: () => multipartDigest(request) },
        },
      });
      const replayed: Record<string, string> = outcome.replayed ? { "Idempotent-Replayed": "true" } : {};
      if (!outcome.ok) return json(outcome.body, outcome.status, { ...outcome.headers, ...replayed });
      const answer = respond(outcome.body.result);
      return { status: answer.status, body: answer.body, headers: replayed };
    },
  });
}
