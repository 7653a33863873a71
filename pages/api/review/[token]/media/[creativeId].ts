import { serveGuestMedia } from "@/lib/http/review-guest/guest-media-route";

// A Pages API route so media keeps Content-Length (see lib/http/pages-api.ts).
export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };
export default serveGuestMedia;
