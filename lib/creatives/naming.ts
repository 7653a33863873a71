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

/** A pattern as a sequence of parts: literal text between fields, a free field, or the aspect field. */
type Part = { kind: "literal"; text: string } | { kind: "field"; name: string } | { kind: "aspect"; name: string };

interface CompiledPattern {
  fields: string[];
  parts: Part[];
}

/** Checks a pattern and compiles it; an `invalid_input` error says what is wrong. */
export function compilePattern(pattern: string): CompiledPattern {
  const invalid = (why: string) => new AppError("invalid_input", `Invalid file-name pattern ${JSON.stringify(pattern)}: ${why}`);
  if (pattern.length > NAMING_LIMITS.maxPatternLength) throw invalid(`longer than ${NAMING_LIMITS.maxPatternLength} characters`);
  const fields: string[] = [];
  const parts: Part[] = [];
  let last = 0;
  let previousWasField = false;
  for (const match of pattern.matchAll(FIELD)) {
    const literal = pattern.slice(last, match.index);
    if (/[{}]/.test(literal)) throw invalid("unbalanced { or }");
    if (literal) parts.push({ kind: "literal", text: literal });
    else if (previousWasField) throw invalid(`{${fields.at(-1)}} and {${match[1]}} need text between them (e.g. _) to tell where one ends`);
    const name = match[1]!;
    if (!FIELD_NAME.test(name) || name.length > NAMING_LIMITS.maxFieldNameLength) {
      throw invalid(`{${name}}: field names are lowercase letters, digits and _ (starting with a letter), at most ${NAMING_LIMITS.maxFieldNameLength}`);
    }
    if (fields.includes(name)) throw invalid(`{${name}} appears twice`);
    fields.push(name);
    parts.push({ kind: name === ASPECT_FIELD ? "aspect" : "field", name });
    last = match.index! + match[0].length;
    previousWasField = true;
  }
  const tail = pattern.slice(last);
  if (/[{}]/.test(tail)) throw invalid("unbalanced { or }");
  if (tail) parts.push({ kind: "literal", text: tail });
  if (!fields.length) throw invalid("it names no field; use {name} placeholders, e.g. {concept}_{hook}_{aspect}");
  if (fields.length > NAMING_LIMITS.maxFields) throw invalid(`more than ${NAMING_LIMITS.maxFields} fields`);
  return { fields, parts };
}

/** The labels a file name carries under the pattern (its extension aside); null when it does not fit. */
export function parseFileName(pattern: string, fileName: string): Record<string, string> | null {
  const { parts } = compilePattern(pattern);
  const base = fileName.replace(/\.[^.]{1,16}$/, "");
  const values = matchParts(parts, Array.from(base));
  if (!values) return null;
  const labels: Record<string, string> = {};
  for (const [field, raw] of values) {
    const value = raw.trim();
    labels[field] = field === ASPECT_FIELD ? value.toLowerCase().replace(/\s*[x:×]\s*/, "x") : value;
  }
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

/**
 * Matches a name (as code points) against the parts, case-insensitively, preferring for each field the shortest
 * value that lets the rest match, as a regex of lazy groups would. Unlike a backtracking regex (10 lazy fields
 * over a 255-character name that almost fits try every way to split it), each (part, position) is tried once:
 * at most parts × positions² steps. Returns each field's value in order, or null.
 */
function matchParts(parts: Part[], chars: string[]): [string, string][] | null {
  const failed = new Set<number>();
  const taken: [name: string, start: number, end: number][] = [];
  const at = (index: number, position: number): boolean => {
    if (index === parts.length) return position === chars.length;
    const key = index * (chars.length + 1) + position;
    if (failed.has(key)) return false;
    const part = parts[index]!;
    const ends =
      part.kind === "literal" ? literalEnd(part.text, chars, position) : part.kind === "aspect" ? aspectEnds(chars, position) : fieldEnds(chars, position);
    for (const end of ends) {
      if (part.kind !== "literal") taken.push([part.name, position, end]);
      if (at(index + 1, end)) return true;
      if (part.kind !== "literal") taken.pop();
    }
    failed.add(key);
    return false;
  };
  return at(0, 0) ? taken.map(([name, start, end]) => [name, chars.slice(start, end).join("")]) : null;
}

function sameLetter(a: string, b: string): boolean {
  return a === b || a.toLowerCase() === b.toLowerCase();
}

function literalEnd(text: string, chars: string[], position: number): number[] {
  const wanted = Array.from(text);
  for (let i = 0; i < wanted.length; i++) if (chars[position + i] === undefined || !sameLetter(chars[position + i]!, wanted[i]!)) return [];
  return [position + wanted.length];
}

/** A free field: one or more characters other than line breaks, shortest first. */
function* fieldEnds(chars: string[], position: number): Generator<number> {
  for (let end = position + 1; end <= chars.length && !/[\n\r\u2028\u2029]/.test(chars[end - 1]!); end++) yield end;
}

/** `W x H`: 1-3 digits, optional spaces, x, : or ×, optional spaces, 1-3 digits; longest first. */
function aspectEnds(chars: string[], position: number): number[] {
  const run = (from: number, test: (c: string) => boolean, max: number) => {
    let n = 0;
    while (n < max && chars[from + n] !== undefined && test(chars[from + n]!)) n++;
    return n;
  };
  const digit = (c: string) => c >= "0" && c <= "9";
  const space = (c: string) => /\s/u.test(c);
  const ends: number[] = [];
  for (let width = run(position, digit, 3); width >= 1; width--) {
    let cursor = position + width;
    cursor += run(cursor, space, Number.MAX_SAFE_INTEGER);
    if (!/^[x:×]$/i.test(chars[cursor] ?? "")) continue;
    cursor += 1;
    cursor += run(cursor, space, Number.MAX_SAFE_INTEGER);
    for (let height = run(cursor, digit, 3); height >= 1; height--) ends.push(cursor + height);
  }
  return ends;
}
