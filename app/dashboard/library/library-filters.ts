import type { CreativeFilters } from "@/lib/read-models/library";
import { REVIEW_STATUSES } from "@/lib/review/schemas";

/** The library's filters in its URL query, so a filtered view survives reload and can be shared. */
const FILTER_KEYS = ["search", "kind", "aspect", "status", "uploaderId", "createdAfter", "createdBefore", "sort"] as const;

/** The filters of a library URL's query (`folder=root`: the library root only). */
export function filtersFromParams(params: Record<string, string | undefined>): CreativeFilters {
  const f: Record<string, string | null | undefined> = {};
  for (const k of FILTER_KEYS) if (params[k]) f[k] = params[k];
  if (params.folder) f.folderId = params.folder === "root" ? null : params.folder;
  if (params.review && (REVIEW_STATUSES as readonly string[]).includes(params.review)) f.reviewStatus = params.review;
  return f as CreativeFilters;
}

/** `href` with its query rewritten to hold these filters. */
export function filtersToUrl(filters: CreativeFilters, href: string): string {
  const url = new URL(href);
  for (const k of [...FILTER_KEYS, "folder", "review"]) url.searchParams.delete(k);
  if (filters.reviewStatus) url.searchParams.set("review", filters.reviewStatus);
  for (const k of FILTER_KEYS) if (filters[k]) url.searchParams.set(k, String(filters[k]));
  if (filters.folderId !== undefined) url.searchParams.set("folder", filters.folderId ?? "root");
  return url.toString();
}
