import { guestView } from "@/lib/review/guest";
import { guestRoute, json } from "@/lib/http/review-guest/guest-http";

export const dynamic = "force-dynamic";

/** The guest view as JSON: the link's creatives (current versions), their status and threads. */
export const GET = guestRoute({}, async ({ token, link }) => json(await guestView(token, link)));
