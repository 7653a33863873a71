import { z } from "zod";
import type { ToolDefinition } from "@/lib/tools/types";
import { multipartFiles } from "./multipart-files";
import { defineOperation, type OperationDef } from "./operation";

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

/** All-optional objects may be sent as no body at all. */
function bodySchema(shape: Shape): z.ZodType {
  const object = z.object(shape);
  return Object.values(shape).every((field) => field.safeParse(undefined).success) ? object.optional() : object;
}

/**
 * The REST operation that serves a tool per its `rest` binding: the tool's own argument schemas
 * validate each part of the request (path, query, JSON body), its capability authorizes the
 * caller, its handler answers. REST keeps its own error codes (`invalid_request`, the domain's
 * codes); the tool error mapping applies to tool calls only.
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

  return defineOperation<any, any, any, any>({
    method: rest.method,
    path: rest.path,
    operationId: rest.operationId,
    summary: rest.summary,
    description: rest.description,
    tag: rest.tag,
    capability: tool.capability,
    allowSession: true,
    params: hasPath ? z.object(pathShape) : undefined,
    query: hasQuery ? z.object(queryShape) : undefined,
    // A query string carries numbers as text; convert them the way z.coerce would.
    coerceQuery: numericQuery.length
      ? (raw) => {
          const values: Record<string, unknown> = { ...raw };
          for (const key of numericQuery) if (typeof raw[key] === "string") values[key] = Number(raw[key]);
          return values;
        }
      : undefined,
    body: hasBody ? bodySchema(bodyShape) : undefined,
    streamedBody: rest.multipartUpload && { contentType: "multipart/form-data", schema: rest.multipartUpload.schema },
    success: { status: rest.status, description: rest.successDescription, schema: rest.responseSchema ?? tool.output },
    errors: rest.errors,
    otherAnswers: rest.otherAnswers,
    handler: async ({ principal, params, query, body, request }) => {
      if (rest.multipartUpload) return respond(await rest.multipartUpload.run(principal, multipartFiles(request)));
      const args: Record<string, unknown> = { ...(query ?? {}), ...(body ?? {}) };
      for (const [name, arg] of Object.entries(pathArg)) args[arg] = (params as Record<string, unknown>)[name];
      return respond(await tool.handler(principal, args));
    },
  });
}
