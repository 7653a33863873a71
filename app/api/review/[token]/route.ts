import { guestRoute, json } from "@/lib/http/review-guest/guest-http";
import { pageQuery } from "@/lib/pagination/page-args";
import { GUEST_PAGE, guestView } from "@/lib/review/guest";

export const dynamic = "force-dynamic";

const Query = pageQuery(GUEST_PAGE);

/**
 * The guest view as JSON, a page at a time (`limit`, `cursor`: the previous page's `nextCursor`): the link's
 * creatives (current versions, oldest first), their status and threads, and how many it shares in all.
 */
export const GET = guestRoute({}, async ({ request, token, link }) => {
  const { searchParams } = new URL(request.url);
  const page = Query.parse({ limit: searchParams.get("limit") ?? undefined, cursor: searchParams.get("cursor") ?? undefined });
  return json(await guestView(token, link, page));
});
