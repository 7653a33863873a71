import { guestBoard } from "@/lib/boards/share";
import { guestRoute, json } from "@/lib/http/review-guest/guest-http";

export const dynamic = "force-dynamic";

/** A board shared by the link, read-only: its items, and the shared creatives with their threads (404 when the link shares no board). */
export const GET = guestRoute({}, async ({ token, link }) => json(await guestBoard(token, link)));
