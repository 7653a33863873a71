import type { JsonSchema } from "@adloom/sdk";
import { UsageError } from "./args.js";

type Property = JsonSchema & { type?: string | string[]; items?: Property; description?: string; enum?: unknown[] };

export const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function types(p: Property): string[] {
  return Array.isArray(p.type) ? p.type : p.type ? [p.type] : [];
}

/** One flag a tool argument becomes. */
export interface ToolFlag {
  /** The argument's name in the tool's schema (camelCase). */
  argument: string;
  /** `--kebab-case` name (the camelCase spelling is accepted too). */
  flag: string;
  required: boolean;
  /** Arrays take repeated flags or commas. */
  multiple: boolean;
  /** What to write after the flag in help: N, true|false, JSON, a|b, TEXT. */
  placeholder: string;
  description: string;
  property: Property;
}

/** The flags of a tool's arguments, in schema order, minus the ones filled from positionals. */
export function toolFlags(schema: JsonSchema, exclude: readonly string[] = []): ToolFlag[] {
  const properties = (schema.properties ?? {}) as Record<string, Property>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties)
    .filter(([name]) => !exclude.includes(name))
    .map(([name, property]) => {
      const t = types(property);
      const item = t.includes("array") ? (property.items ?? {}) : property;
      const it = types(item);
      const choices = Array.isArray(item.enum) ? item.enum.filter((v) => v !== null).join("|") : "";
      const placeholder =
        choices && choices.length <= 40
          ? choices
          : it.includes("integer") || it.includes("number")
            ? "N"
            : it.includes("boolean")
              ? "true|false"
              : it.includes("object")
                ? "JSON"
                : "TEXT";
      return {
        argument: name,
        flag: kebab(name),
        required: required.has(name),
        multiple: t.includes("array"),
        placeholder: t.includes("array") ? `${placeholder}[,${placeholder}...]` : placeholder,
        description: property.description ?? "",
        property,
      };
    });
}

/** node:util parseArgs options for these flags: every tool flag takes a value (booleans as true/false). */
export function parseArgsOptions(flags: ToolFlag[]): Record<string, { type: "string"; multiple: true }> {
  const options: Record<string, { type: "string"; multiple: true }> = {};
  for (const f of flags) {
    options[f.flag] = { type: "string", multiple: true };
    if (f.argument !== f.flag) options[f.argument] = { type: "string", multiple: true };
  }
  return options;
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

/** One argument's value from its raw flag values: numbers and booleans converted, arrays from repeats or commas, `null` for nullable values. */
export function argumentValue(f: ToolFlag, values: string[]): unknown {
  const nullable = types(f.property).includes("null");
  if (f.multiple) {
    if (values.length === 1 && values[0] === "null" && nullable) return null;
    return values.flatMap((v) => v.split(",")).map((v) => coerce(v, f.property.items ?? {}, f.flag));
  }
  return coerce(values[values.length - 1]!, f.property, f.flag);
}

/** Tool arguments from parsed flag values (by flag name, either spelling). */
export function argumentsFromFlags(flags: ToolFlag[], values: Record<string, string[] | undefined>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const f of flags) {
    const given = [...(values[f.flag] ?? []), ...(f.argument !== f.flag ? (values[f.argument] ?? []) : [])];
    if (given.length) result[f.argument] = argumentValue(f, given);
  }
  return result;
}
