import type { z } from "zod";
import type { CapabilityId } from "@/lib/auth/capabilities";
import type { Principal } from "@/lib/auth/principal";
import type { ErrorCode } from "@/lib/errors";
import type { AcceptUploadsInput } from "@/lib/uploads/accept-uploads";

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
  /** A curated REST route of the spec that serves this tool (same handler, schemas and checks). */
  rest?: RestBinding;
}

/** Answers an operation gives besides its success status, for the OpenAPI document. */
export interface OtherAnswers {
  /** Statuses answered with the success body, and what each means. */
  sameBody?: Record<string, string>;
  /** Statuses answered without a body. */
  empty?: Record<string, string>;
  /** Optional request headers those answers depend on. */
  headers?: Record<string, string>;
  /** Error statuses a protocol prescribes beyond the error codes' own (tus: 410, 412, 413), answered in the error envelope. */
  errorStatuses?: Record<string, string>;
}

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Where one tool argument travels in a REST request. Path parameters may be named differently in
 * the path (`{ path: "id" }` for an argument `creativeId` at `/creatives/{id}/copy`).
 */
export type RestArgSource = "query" | "body" | { path: string };

/**
 * How a tool is served as a curated REST route. Arguments not named in `args` travel in the
 * query string (GET) or the JSON body (other methods). The answer is the tool's result unless
 * `respond` reshapes it (the spec's REST bodies sometimes say less than the tool's result).
 */
export interface RestBinding<R = any> {
  method: HttpMethod;
  /** OpenAPI-style path, e.g. `/api/v1/uploads/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  /** OpenAPI tag. */
  tag: string;
  args?: Record<string, RestArgSource>;
  /** The success status. */
  status: number;
  /** A status chosen from the result instead (e.g. 201 when created, 200 when updated). */
  statusOf?: (result: R) => number;
  /** Description of the success response in the OpenAPI document. */
  successDescription: string;
  /** The REST body, when it differs from the tool's result; `responseSchema` then documents it. */
  respond?: (result: R) => unknown;
  responseSchema?: z.ZodType;
  /** Errors the route can answer besides the ones every route can (401, 402, 403, 409, 429, 500). */
  errors?: ErrorCode[];
  /** Success statuses besides `status` (those `statusOf` can choose), for the document. */
  otherAnswers?: OtherAnswers;
  /**
   * The body is the multipart upload form instead of JSON: the HTTP edge parses it as it streams
   * (never held whole in memory) and hands `run` the files one at a time; `schema` documents it.
   */
  multipartUpload?: {
    schema: Record<string, unknown>;
    run: (principal: Principal, form: AcceptUploadsInput) => Promise<R>;
  };
}

/** Declares a tool with its types checked against its schemas. */
export function defineTool<I extends z.ZodType, O extends z.ZodType>(
  def: Omit<ToolDefinition<I, O>, "handler" | "rest"> & {
    handler: (principal: Principal, input: z.output<I>) => Promise<z.input<O>>;
    rest?: RestBinding<z.input<O>>;
  },
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
