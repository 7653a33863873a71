import fc from "fast-check";
import { hostileString, hostileValue } from "./hostile";

export type JsonSchema = Record<string, any>;

export interface GenerationContext {
  /** Resolves `#/components/schemas/...` references (OpenAPI). */
  resolve: (ref: string) => JsonSchema;
  /** Real ids (of the fuzzed workspace and of the bystander workspace) to aim at, so handlers run past "not found". */
  ids: string[];
}

const MAX_DEPTH = 6;

/**
 * Values for a JSON Schema: mostly shaped like the schema (so requests get past validation and
 * into the handlers), and at every level sometimes a hostile value of any kind instead.
 */
export function arbitraryFor(schema: JsonSchema | undefined, ctx: GenerationContext, name = "", depth = 0): fc.Arbitrary<unknown> {
  const shaped = shapedFor(schema ?? {}, ctx, name, depth);
  return fc.oneof({ weight: 3, arbitrary: shaped }, { weight: 1, arbitrary: hostileValue });
}

function shapedFor(schema: JsonSchema, ctx: GenerationContext, name: string, depth: number): fc.Arbitrary<unknown> {
  if (schema.$ref) return shapedFor(ctx.resolve(schema.$ref), ctx, name, depth);
  if (depth > MAX_DEPTH) return fc.constant(null);
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => shapedFor(s, ctx, name, depth + 1)));
  if (Array.isArray(schema.allOf) && schema.allOf.length) return shapedFor(Object.assign({}, ...schema.allOf), ctx, name, depth + 1);
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (!types.length)
    return types.length === 0 && schema.properties ? objectFor(schema, ctx, depth) : fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.constant(null));
  return fc.oneof(...types.map((t) => typedFor(t, schema, ctx, name, depth)));
}

function typedFor(type: string, schema: JsonSchema, ctx: GenerationContext, name: string, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({ min: clampInt(schema.minimum ?? -1000), max: clampInt(schema.maximum ?? 1000) });
    case "number":
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case "string":
      return stringFor(schema, ctx, name);
    case "array": {
      const items = arbitraryFor(schema.items, ctx, name, depth + 1);
      return fc.array(items, { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) });
    }
    case "object":
      return objectFor(schema, ctx, depth);
    default:
      return fc.constant(null);
  }
}

const clampInt = (n: number) => Math.max(-(2 ** 31), Math.min(2 ** 31, Math.trunc(n)));

function stringFor(schema: JsonSchema, ctx: GenerationContext, name: string): fc.Arbitrary<string> {
  const looksLikeId = /(^id$|Id$|^ids?$|cursor)/.test(name);
  const max = Math.min(schema.maxLength ?? 40, 40);
  const min = Math.min(schema.minLength ?? 0, max);
  const plain = fc.string({ minLength: min, maxLength: max });
  const options: fc.Arbitrary<string>[] = [plain];
  if (looksLikeId && ctx.ids.length) options.push(fc.constantFrom(...ctx.ids), fc.constantFrom(...ctx.ids));
  if (schema.format === "uri" || /url/i.test(name))
    options.push(fc.constantFrom("https://example.com/hook", "http://127.0.0.1:9/x", "https://[::1]/", "not a url"));
  options.push(hostileString);
  return fc.oneof(...options);
}

function objectFor(schema: JsonSchema, ctx: GenerationContext, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set<string>(schema.required ?? []);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, sub] of Object.entries(properties)) record[key] = arbitraryFor(sub, ctx, key, depth + 1);
  const known = fc.record(record, { requiredKeys: [...required].filter((k) => k in record) });
  // Unknown properties, sometimes: strict schemas must refuse them with a 400.
  const unknown = fc.option(fc.dictionary(fc.constantFrom("unknownField", "__proto__", "constructor", "a\u0000b", "\ud800"), hostileValue, { maxKeys: 2 }), {
    freq: 4,
  });
  return fc.tuple(known, unknown).map(([k, u]) => (u ? { ...k, ...u } : k));
}
