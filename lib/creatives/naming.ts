import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

/**
 * Naming conventions: a workspace's file-name pattern such as `{concept}_{hook}_{aspect}` turns
 * `spring_hookA_9x16.mp4` into labels `{ concept: "spring", hook: "hookA", aspect: "9x16" }`, stored
 * on the creative when it is made. Creatives whose labels differ only in `aspect` are one concept
 * in several aspects (the bulk builder's `byConcept`).
 */
export const NAMING_LIMITS = { maxPatternLength: 200, maxFields: 10, maxFieldNameLength: 30 } as const;
/** The field that names an aspect ratio; it only matches `W x H` (9x16, 9:16, 4X5), stored as `9x16`. */
export const ASPECT_FIELD = "aspect";

const FIELD = /\{([^{}]*)\}/g;
const FIELD_NAME = /^[a-z][a-z0-9_]*$/;

interface CompiledPattern {
  fields: string[];
  regex: RegExp;
}

/** Checks a pattern and compiles it; an `invalid_input` error says what is wrong. */
export function compilePattern(pattern: string): CompiledPattern {
  const invalid = (why: string) => new AppError("invalid_input", `Invalid file-name pattern ${JSON.stringify(pattern)}: ${why}`);
  if (pattern.length > NAMING_LIMITS.maxPatternLength) throw invalid(`longer than ${NAMING_LIMITS.maxPatternLength} characters`);
  const fields: string[] = [];
  let source = "^";
  let last = 0;
  let previousWasField = false;
  for (const match of pattern.matchAll(FIELD)) {
    const literal = pattern.slice(last, match.index);
    if (/[{}]/.test(literal)) throw invalid("unbalanced { or }");
    if (literal) source += escapeRegex(literal);
    else if (previousWasField) throw invalid(`{${fields.at(-1)}} and {${match[1]}} need text between them (e.g. _) to tell where one ends`);
    const name = match[1]!;
    if (!FIELD_NAME.test(name) || name.length > NAMING_LIMITS.maxFieldNameLength) {
      throw invalid(`{${name}}: field names are lowercase letters, digits and _ (starting with a letter), at most ${NAMING_LIMITS.maxFieldNameLength}`);
    }
    if (fields.includes(name)) throw invalid(`{${name}} appears twice`);
    fields.push(name);
    source += name === ASPECT_FIELD ? "(\\d{1,3}\\s*[x:×]\\s*\\d{1,3})" : "(.+?)";
    last = match.index! + match[0].length;
    previousWasField = true;
  }
  const tail = pattern.slice(last);
  if (/[{}]/.test(tail)) throw invalid("unbalanced { or }");
  source += `${escapeRegex(tail)}$`;
  if (!fields.length) throw invalid("it names no field; use {name} placeholders, e.g. {concept}_{hook}_{aspect}");
  if (fields.length > NAMING_LIMITS.maxFields) throw invalid(`more than ${NAMING_LIMITS.maxFields} fields`);
  return { fields, regex: new RegExp(source, "iu") };
}

/** The labels a file name carries under the pattern (its extension aside); null when it does not fit. */
export function parseFileName(pattern: string, fileName: string): Record<string, string> | null {
  const { fields, regex } = compilePattern(pattern);
  const base = fileName.replace(/\.[^.]{1,16}$/, "");
  const match = regex.exec(base);
  if (!match) return null;
  const labels: Record<string, string> = {};
  fields.forEach((field, i) => {
    const value = match[i + 1]!.trim();
    labels[field] = field === ASPECT_FIELD ? value.toLowerCase().replace(/\s*[x:×]\s*/, "x") : value;
  });
  return Object.values(labels).every(Boolean) ? labels : null;
}

/** The labels for a new creative under the workspace's pattern (null: no pattern, or the name does not fit). */
export function labelsForNewCreative(pattern: string | null | undefined, fileName: string): Record<string, string> | null {
  if (!pattern) return null;
  try {
    return parseFileName(pattern, fileName);
  } catch {
    return null; // a pattern stored before a rule tightened: no labels rather than no creative
  }
}

/** What a creative's labels say about grouping: the concept (every label but aspect) and the aspect. */
export function conceptOf(labels: unknown): { key: string; aspect: string | null } | null {
  if (!labels || typeof labels !== "object" || Array.isArray(labels)) return null;
  const entries = Object.entries(labels as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === "string");
  const rest = entries.filter(([k]) => k !== ASPECT_FIELD).sort(([a], [b]) => a.localeCompare(b));
  if (!rest.length) return null;
  const aspect = entries.find(([k]) => k === ASPECT_FIELD)?.[1] ?? null;
  return { key: rest.map(([k, v]) => `${k}=${v.toLowerCase()}`).join("|"), aspect };
}

export interface NamingConvention {
  pattern: string | null;
  fields: string[];
}

export async function getNamingConvention(principal: Principal): Promise<{ namingConvention: NamingConvention }> {
  const row = await getDb().workspace.findUnique({ where: { id: principal.workspaceId }, select: { fileNamePattern: true } });
  const pattern = row?.fileNamePattern ?? null;
  return { namingConvention: { pattern, fields: pattern ? compilePattern(pattern).fields : [] } };
}

/**
 * Sets (or with null, clears) the workspace's pattern. Applies to creatives made from now on;
 * `example` previews how a file name would be parsed.
 */
export async function setNamingConvention(
  principal: Principal,
  input: { pattern: string | null; example?: string | undefined },
): Promise<{ namingConvention: NamingConvention; example: { fileName: string; labels: Record<string, string> | null } | null }> {
  const pattern = input.pattern?.trim() || null;
  const fields = pattern ? compilePattern(pattern).fields : [];
  await getDb().workspace.update({ where: { id: principal.workspaceId }, data: { fileNamePattern: pattern } });
  const example = input.example && pattern ? { fileName: input.example, labels: parseFileName(pattern, input.example) } : null;
  return { namingConvention: { pattern, fields }, example };
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
