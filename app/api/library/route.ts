import { libraryPageResponse } from "@/lib/dashboard/library-page";

// The Library grid's pages, fetched as its filters change (app/dashboard/library/library-browser.tsx).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  return libraryPageResponse(request);
}
