import type { JsonSchema } from "../sdk/types";
import { UsageError, type ParsedArgs } from "./args";

type Property = JsonSchema & { type?: string | string[]; items?: Property };

const GLOBAL_FLAGS = new Set(["json", "api-key", "base-url", "help"]);

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function types(p: Property): string[] {
  return Array.isArray(p.type) ? p.type : p.type ? [p.type] : [];
}

function coerce(raw: string, p: Property, flagName: string): unknown {
  const t = types(p);
  if (raw === "null" && t.includes("null")) return null;
  if (t.includes("integer") || t.includes("number")) {
    const n = Number(raw);
    if (raw.trim() === "" || Number.isNaN(n)) throw new UsageError(`--${flagName} must be a number, got "${raw}"`);
    return n;
  }
  if (t.includes("boolean")) {
    if (raw === "true" || raw === "false") return raw === "true";
    throw new UsageError(`--${flagName} must be true or false, got "${raw}"`);
  }
  if (t.includes("object") || (t.length === 0 && /^[[{]/.test(raw))) {
    try {
      return JSON.parse(raw);
    } catch {
      throw new UsageError(`--${flagName} must be JSON`);
    }
  }
  return raw;
}

/**
 * Tool arguments from flags, typed by the tool's input schema: `--creative-id X` or
 * `--creativeId X`; numbers and booleans converted; arrays from repeated flags or commas;
 * objects as JSON; `null` for nullable values.
 */
export function argumentsFromFlags(schema: JsonSchema, args: ParsedArgs): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Property>;
  const byFlag = new Map<string, string>();
  for (const name of Object.keys(properties)) {
    byFlag.set(name, name);
    byFlag.set(kebab(name), name);
  }
  const result: Record<string, unknown> = {};
  for (const [flagName, values] of args.flags) {
    if (GLOBAL_FLAGS.has(flagName)) continue;
    const name = byFlag.get(flagName);
    if (!name) {
      const known = Object.keys(properties).map((n) => `--${kebab(n)}`).join(", ") || "none";
      throw new UsageError(`Unknown argument --${flagName}; this tool takes ${known}`);
    }
    const property = properties[name]!;
    if (types(property).includes("array")) {
      const items = values.flatMap((v) => (v === "null" && types(property).includes("null") ? [] : v.split(",")));
      result[name] = values.length === 1 && values[0] === "null" && types(property).includes("null") ? null : items.map((v) => coerce(v, property.items ?? {}, flagName));
    } else {
      result[name] = coerce(values[values.length - 1]!, property, flagName);
    }
  }
  return result;
}
