/** Validators of a representation, for conditional requests (RFC 9110 §13). */
export interface Validators {
  etag: string;
  lastModified: Date;
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** Whether a GET may answer 304: If-None-Match (weak comparison) wins over If-Modified-Since. */
export function isNotModified(headers: Headers, current: Validators): boolean {
  const ifNoneMatch = headers.get("if-none-match");
  if (ifNoneMatch !== null) {
    if (ifNoneMatch.trim() === "*") return true;
    const mine = opaque(current.etag);
    return ifNoneMatch.split(",").some((tag) => opaque(tag) === mine);
  }
  const ifModifiedSince = headers.get("if-modified-since");
  if (ifModifiedSince === null) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && seconds(current.lastModified) <= Math.floor(since / 1000);
}

/** Whether a Range request may be honoured: without If-Range, or when it names the current version. */
export function rangeStillApplies(headers: Headers, current: Validators): boolean {
  const ifRange = headers.get("if-range");
  if (ifRange === null) return true;
  const value = ifRange.trim();
  if (value.startsWith('"')) return value === current.etag; // strong comparison
  if (value.startsWith("W/")) return false;
  const date = Date.parse(value);
  return !Number.isNaN(date) && Math.floor(date / 1000) === seconds(current.lastModified);
}
