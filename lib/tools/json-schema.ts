import { z } from "zod";

type JsonSchema = Record<string, unknown>;

/**
 * A tool's zod schema as the JSON Schema (draft 2020-12) the catalog serves. Named
 * components are inlined (a tool schema stands alone) and `$schema` is left out.
 */
export function toToolJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const {
    $schema: _dialect,
    $defs,
    ...rest
  } = z.toJSONSchema(schema, { io, unrepresentable: "any", reused: "inline", cycles: "throw" }) as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
  };
  const inlined = tidy(rest, $defs ?? {}) as JsonSchema;
  return io === "output" ? (openForAdditions(withNullable(inlined)) as JsonSchema) : inlined;
}

/**
 * Inlines named components (many tool-calling clients do not follow `$ref`) and drops the
 * safe-integer bounds zod adds to every integer (noise for readers, no constraint in practice).
 */
function tidy(node: unknown, defs: Record<string, JsonSchema>): unknown {
  if (Array.isArray(node)) return node.map((n) => tidy(n, defs));
  if (!node || typeof node !== "object") return node;
  const { $ref, ...schema } = node as JsonSchema;
  const target = typeof $ref === "string" && $ref.startsWith("#/$defs/") ? defs[$ref.slice("#/$defs/".length)] : undefined;
  const merged: JsonSchema = target ? { ...(tidy(target, defs) as JsonSchema), ...schema } : $ref !== undefined ? { $ref, ...schema } : schema;
  if (merged.minimum === Number.MIN_SAFE_INTEGER) delete merged.minimum;
  if (merged.maximum === Number.MAX_SAFE_INTEGER) delete merged.maximum;
  return Object.fromEntries(Object.entries(merged).map(([k, v]) => [k, k === "const" || k === "enum" || k === "default" ? v : tidy(v, defs)]));
}

/**
 * "Same schema dialect plus `nullable`": a nullable value is written as a type union
 * (`type: ["string", "null"]`) and additionally marked `nullable: true`, so both JSON
 * Schema and OpenAPI-3.0-style readers understand it. Unions that are not a single type
 * plus null stay as zod emits them (`anyOf`).
 */
function withNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withNullable);
  if (!node || typeof node !== "object") return node;
  const schema = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, withNullable(v)])) as JsonSchema;
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullIndex = anyOf.findIndex((s) => s.type === "null" && Object.keys(s).length === 1);
    const other = anyOf[1 - nullIndex];
    if (nullIndex !== -1 && other && typeof other.type === "string" && !("anyOf" in other)) {
      const { anyOf: _union, ...outer } = schema;
      const merged: JsonSchema = { ...other, ...outer, type: [other.type, "null"], nullable: true };
      if (Array.isArray(other.enum)) merged.enum = [...other.enum, null];
      return merged;
    }
  }
  if (Array.isArray(schema.type) && schema.type.includes("null")) schema.nullable = true;
  return schema;
}

/** Results gain fields over time (clients ignore unknown ones), so a result schema never forbids extra properties. */
function openForAdditions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openForAdditions);
  if (!node || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k, v]) => !(k === "additionalProperties" && v === false))
      .map(([k, v]) => [k, k === "const" || k === "enum" || k === "default" ? v : openForAdditions(v)]),
  );
}
