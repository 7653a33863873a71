/** The outcome of reading a `Range` header against an object of a known size (RFC 9110 §14). */
export type RangeRequest = { kind: "full" } | { kind: "partial"; start: number; end: number } | { kind: "unsatisfiable" };

/**
 * Single byte ranges are served as 206; a header we do not understand, or one asking
 * for several ranges, is ignored (the whole object is sent), as the RFC allows.
 */
export function parseRange(header: string | null, size: number): RangeRequest {
  if (!header) return { kind: "full" };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return { kind: "full" };
  const [, first, last] = match as unknown as [string, string, string];
  if (first === "" && last === "") return { kind: "full" };
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "partial", start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== "" && Number(last) < start) return { kind: "full" }; // syntactically invalid: ignore
  if (start >= size) return { kind: "unsatisfiable" };
  const end = last === "" ? size - 1 : Number(last);
  return { kind: "partial", start, end: Math.min(end, size - 1) };
}
