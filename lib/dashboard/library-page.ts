import { z } from "zod";
import { CreativeFilterFields } from "@/lib/creatives/search-creatives";
import { describeZodError } from "@/lib/errors";
import { errorResponse, newRequestId, toErrorResponse } from "@/lib/http/responses";
import { loadLibraryPage } from "@/lib/read-models/library";
import { currentPrincipal } from "./current";

/** A Library grid page's query: the filters as the page's URL holds them (app/dashboard/library/library-filters.ts), and the cursor. */
const LibraryPageQuery = z.strictObject({ ...CreativeFilterFields, cursor: z.string().min(1).max(500).optional() });

/**
 * GET /api/library: one page of the Library grid (the read model the page renders first) for the signed-in
 * member's active workspace. The grid fetches it the moment a filter changes; as a server action the request
 * left only once React had rendered the change, since Next queues actions through its router (docs/decisions.md).
 */
export async function libraryPageResponse(request: Request): Promise<Response> {
  const principal = await currentPrincipal();
  if (!principal) return errorResponse("unauthorized", "Sign in to see the library");
  const params = new URL(request.url).searchParams;
  const raw: Record<string, string | null> = {};
  for (const [key, value] of params) {
    if (key === "folder") raw.folderId = value === "root" ? null : value;
    else if (key === "review") raw.reviewStatus = value;
    else raw[key] = value;
  }
  const query = LibraryPageQuery.safeParse(raw);
  if (!query.success) return errorResponse("invalid_request", `Invalid library query: ${describeZodError(query.error)}`);
  try {
    return Response.json(await loadLibraryPage(principal, query.data), { headers: { "Cache-Control": "no-store" } });
  } catch (err) {
    return toErrorResponse(err, newRequestId());
  }
}
