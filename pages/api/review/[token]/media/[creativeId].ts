import { serveGuestMedia } from "@/lib/review/guest-media-route";

// A Pages API route so media keeps Content-Length (see lib/http/pages-api.ts).
export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };
export default serveGuestMedia;
