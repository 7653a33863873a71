import { z } from "zod";
import { SCOPES, SCOPE_DESCRIPTIONS } from "@/lib/auth/scopes";
import { CAPABILITIES } from "@/lib/auth/capabilities";
import { ERROR_CODES, type ErrorCode } from "@/lib/errors";
import { HTTP_EDGE_DEFAULTS } from "@/lib/http-edge-defaults.mjs";
import type { OperationDef } from "@/lib/http/operation";
import type { OtherAnswers } from "@/lib/tools/types";

type JsonSchema = Record<string, unknown>;

/** Errors any authenticated operation can answer, before its handler runs. */
// invalid_request: any request can carry ambiguous credentials, unusable text in a header or cookie, or a dot segment (`%2e%2e`) in its path.
const COMMON_ERRORS: ErrorCode[] = [
  "invalid_request",
  "unauthorized",
  "subscription_required",
  "forbidden",
  "workspace_changed",
  "rate_limited",
  "internal_error",
];

const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.string().describe("Machine-readable error code; clients match on it (unknown codes read as tool_error)"),
      message: z.string().describe("Human-readable explanation"),
    }),
  })
  .meta({ id: "Error" });

/** Converts a zod schema, moving named ($defs) schemas into the shared components. */
function toSchema(schema: z.ZodType, components: Record<string, JsonSchema>, io: "input" | "output"): JsonSchema {
  const {
    $defs,
    $schema: _ignored,
    ...rest
  } = z.toJSONSchema(schema, { io, unrepresentable: "any", reused: "inline" }) as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
  };
  for (const [name, def] of Object.entries($defs ?? {})) components[name] = rewriteRefs(def) as JsonSchema;
  return rewriteRefs(rest) as JsonSchema;
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === "$ref" && typeof v === "string" ? v.replace("#/$defs/", "#/components/schemas/") : rewriteRefs(v)]),
    );
  }
  return value;
}

function parametersOf(schema: z.ZodType | undefined, location: "path" | "query", components: Record<string, JsonSchema>) {
  if (!schema) return [];
  const object = toSchema(schema, components, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return {
      name,
      in: location,
      required: location === "path" || (object.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: propertySchema,
    };
  });
}

function errorResponses(codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus.entries()].map(([status, list]) => [
      String(status),
      {
        description: list.map((c) => `\`${c}\`: ${ERROR_CODES[c].description}`).join("; "),
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      },
    ]),
  );
}

/** Any request can be refused before it reaches an operation: by the HTTP server, for its size (lib/server/http-edge.mjs). */
const HEAD_TOO_LARGE = {
  "431": {
    description: `\`invalid_request\`: the request head (request line and headers) is larger than HTTP_MAX_HEADER_BYTES (${HTTP_EDGE_DEFAULTS.HTTP_MAX_HEADER_BYTES} bytes by default); the connection then closes`,
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  },
};

function otherResponses(other: OtherAnswers, success: { description: string; content?: unknown }) {
  return {
    responses: {
      ...Object.fromEntries(Object.entries(other.sameBody ?? {}).map(([status, description]) => [status, { ...success, description }])),
      ...Object.fromEntries(Object.entries(other.empty ?? {}).map(([status, description]) => [status, { description }])),
      ...Object.fromEntries(
        Object.entries(other.errorStatuses ?? {}).map(([status, description]) => [
          status,
          { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
        ]),
      ),
    },
    headers: Object.entries(other.headers ?? {}).map(([name, description]) => ({
      name,
      in: "header",
      required: false,
      description,
      schema: { type: "string" },
    })),
  };
}

function operationObject(op: OperationDef<any, any, any, any>, components: Record<string, JsonSchema>) {
  const errors: ErrorCode[] = [...COMMON_ERRORS, ...(op.errors ?? [])];
  if (op.params || op.query || op.body || op.streamedBody) errors.push("invalid_request");
  const readOnly = op.method === "GET" || op.method === "HEAD";
  if (!readOnly) errors.push("conflict");
  const capability = op.capability ? CAPABILITIES[op.capability] : null;
  const access = capability
    ? `Needs the role permission \`${capability.permission}\`; ${
        capability.scopes === "unscoped"
          ? "an unscoped key"
          : capability.scopes.length
            ? `scoped keys need ${capability.scopes.map((s) => `\`${s}\``).join(" and ")}`
            : "any scope"
      }.`
    : "Authorized by ownership of the object.";
  const requestBody = op.body
    ? { required: true, content: { "application/json": { schema: toSchema(op.body, components, "input") } } }
    : op.streamedBody
      ? { required: true, content: { [op.streamedBody.contentType]: { schema: op.streamedBody.schema } } }
      : undefined;
  const success = {
    description: op.success.description,
    ...(op.success.schema ? { content: { "application/json": { schema: toSchema(op.success.schema, components, "output") } } } : {}),
    ...(op.success.contentType ? { content: { [op.success.contentType]: { schema: { type: "string" } } } } : {}),
  };
  const other = otherResponses(op.otherAnswers ?? {}, success);
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: [op.description, access].filter(Boolean).join("\n\n"),
    tags: [op.tag],
    parameters: [
      ...parametersOf(op.params, "path", components),
      ...parametersOf(op.query, "query", components),
      ...(!readOnly
        ? [
            {
              name: "Idempotency-Key",
              in: "header",
              required: false,
              description:
                "Replays the first response for 24 hours to a repeat of the same request (a multipart form: the same files and fields, whatever its boundary); another request under the key is refused with 409. Up to 200 characters; scoped to the workspace",
              schema: { type: "string", maxLength: 200 },
            },
          ]
        : []),
      ...other.headers,
    ],
    ...(requestBody ? { requestBody } : {}),
    responses: Object.fromEntries(
      Object.entries({ [String(op.success.status)]: success, ...other.responses, ...errorResponses(errors), ...HEAD_TOO_LARGE }).sort(
        ([a], [b]) => Number(a) - Number(b),
      ),
    ),
  };
}

/** The OpenAPI 3.1 document of the REST API, generated from the operations' own schemas. */
export function buildOpenApiDocument(operations: OperationDef<any, any, any, any>[], serverUrl: string) {
  const components: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(op, components);
  }
  // A named root schema comes back as a $ref to its own $defs entry, which toSchema files under components.
  const errorSchema = toSchema(ErrorEnvelope, components, "output");
  components.Error ??= errorSchema;
  return {
    openapi: "3.1.0",
    info: {
      title: "Adloom API",
      version: "1",
      description:
        "Creative uploads, the creatives library, copy variants and webhooks. Every request carries `Authorization: Bearer <API_KEY>`; " +
        "errors use the envelope `{ error: { code, message } }`. Scopes: " +
        SCOPES.map((s) => `\`${s}\` (${SCOPE_DESCRIPTIONS[s]})`).join(", ") +
        ".",
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      schemas: components,
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "An Adloom API key (adl_...)" } },
    },
  };
}
