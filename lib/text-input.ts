import { badRequest } from "@/lib/errors";

/**
 * Text as it arrives from a client, checked once at the edge (path, query, JSON bodies, tool
 * arguments, multipart fields and file names). PostgreSQL cannot store NUL in text, and an
 * unpaired UTF-16 surrogate is not Unicode (the driver would silently turn it into U+FFFD), so
 * both are refused with the path of the offending field instead of failing deep in the database.
 * Nesting is bounded so no later step (JSON.stringify, zod, Prisma) can overflow the stack.
 */
export const TEXT_INPUT_LIMITS = {
  /** Objects and arrays inside one another; tool arguments and bodies need a handful. */
  maxDepth: 32,
  /** Property names: our schemas use short ones; anything longer is noise. */
  maxKeyLength: 200,
  /** Path and query values (ids, cursors, names are far shorter; a download name is at most 1,000). */
  maxUrlValueLength: 2_000,
  /** Any string in a REST JSON body: the longest field we define (copy primaryText) is 5,000 characters. */
  maxJsonStringLength: 100_000,
} as const;

export interface TextInputOptions {
  /** Longest string allowed anywhere in the value; unlimited when absent (the body size bounds it). */
  maxStringLength?: number;
  maxDepth?: number;
}

export interface TextInputProblem {
  /** Where: `ids[1]`, `copy.headline`, `(value)` for the value itself. */
  path: string;
  reason: string;
}

const NUL = "\u0000";

function stringProblem(s: string, maxLength: number | undefined): string | null {
  if (s.includes(NUL)) return "contains a NUL byte (U+0000), which text cannot hold";
  if (!s.isWellFormed()) return "contains an unpaired UTF-16 surrogate, which is not valid Unicode text";
  if (maxLength !== undefined && s.length > maxLength) return `is longer than ${maxLength} characters`;
  return null;
}

/** A property name as it can be shown in a message (controls and lone surrogates escaped). */
function showKey(key: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it escapes
  return key.slice(0, 60).replace(/[\u0000-\u001f\u007f]|\p{Cs}/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Where a value sits: its parent's place and its key in it (the root has neither). */
interface Place {
  parent: Place | null;
  key: string | number | null;
}

/** `ids[1]`, `copy.headline`: spelled out only for a value that has a problem, so a clean scan builds no strings. */
function pathOf(place: Place): string {
  const keys: (string | number)[] = [];
  for (let p: Place | null = place; p && p.key !== null; p = p.parent) keys.push(p.key);
  let path = "";
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i]!;
    path = typeof key === "number" ? `${path}[${key}]` : path ? `${path}.${showKey(key)}` : showKey(key);
  }
  return path || "(value)";
}

/** The first NUL byte, unpaired surrogate, over-long string or over-deep nesting in a parsed value; null when clean. */
export function findTextInputProblem(value: unknown, options: TextInputOptions = {}): TextInputProblem | null {
  const maxDepth = options.maxDepth ?? TEXT_INPUT_LIMITS.maxDepth;
  // Iterative, so a value nested a million levels deep costs a loop, not the stack.
  const stack: { value: unknown; place: Place; depth: number }[] = [{ value, place: { parent: null, key: null }, depth: 0 }];
  while (stack.length) {
    const item = stack.pop()!;
    const v = item.value;
    if (typeof v === "string") {
      const reason = stringProblem(v, options.maxStringLength);
      if (reason) return { path: pathOf(item.place), reason };
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (item.depth >= maxDepth) return { path: pathOf(item.place), reason: `nests deeper than ${maxDepth} levels` };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], place: { parent: item.place, key: i }, depth: item.depth + 1 });
      continue;
    }
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      const place = { parent: item.place, key };
      const keyReason = stringProblem(key, TEXT_INPUT_LIMITS.maxKeyLength);
      if (keyReason) return { path: pathOf(place), reason: `a property name ${keyReason}` };
      stack.push({ value: (v as Record<string, unknown>)[key], place, depth: item.depth + 1 });
    }
  }
  return null;
}

export interface AssertTextInputOptions extends TextInputOptions {
  /** The error to throw with the message (default: 400 `invalid_request`; tools pass their `invalid_input`). */
  error?: (message: string) => Error;
}

/**
 * Throws "Invalid <where>: <path>: <reason>" when the value holds text the service refuses
 * (just "<path>: <reason>" when `where` is null, for errors that add their own prefix).
 */
export function assertTextInput(value: unknown, where: string | null, options: AssertTextInputOptions = {}): void {
  const problem = findTextInputProblem(value, options);
  if (!problem) return;
  const message = `${where === null ? "" : `Invalid ${where}: `}${problem.path}: ${problem.reason}`;
  throw (options.error ?? badRequest)(message);
}
