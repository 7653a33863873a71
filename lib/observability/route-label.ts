/**
 * A bounded route label for metrics: the request path with ids replaced by `:id`, so that
 * `/api/v1/uploads/upl_3k9x…` counts as `/api/v1/uploads/:id`. Works on the path alone (some
 * routes are catch-alls), and stops inventing labels after MAX_LABELS so a scanner's random
 * paths cannot grow the metrics without bound.
 */
const MAX_LABELS = 300;
const MAX_DEPTH = 6;
const seen = new Set<string>();

function isIdLike(segment: string): boolean {
  return (
    /^[a-z]{1,12}_[0-9a-z]{16,}$/i.test(segment) || // our ids (ws_…, upl_…: 20 random characters), not tool names (get_upload)
    /^\d+$/.test(segment) ||
    /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(segment) ||
    segment.length >= 24 ||
    !/^[a-z0-9._-]+$/i.test(segment) // anything unusual (encoded bytes, spaces): never a route name
  );
}

export function routeLabel(rawPath: string): string {
  const path = rawPath.split("?")[0] ?? "/";
  if (path.startsWith("/_next/")) return "/_next/*";
  const segments = path.split("/").filter(Boolean);
  const parts = segments.slice(0, MAX_DEPTH).map((s) => (isIdLike(s) ? ":id" : s.toLowerCase()));
  const label = "/" + parts.join("/") + (segments.length > MAX_DEPTH ? "/*" : "");
  if (seen.has(label)) return label;
  if (seen.size >= MAX_LABELS) return "other";
  seen.add(label);
  return label;
}
