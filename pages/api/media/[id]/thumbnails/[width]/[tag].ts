import { getCreativeThumbnailOperation } from "@/lib/api/media";
import { pagesApiRoute } from "@/lib/http/pages-api";

// A Pages API route (not an app route) so the response keeps Content-Length: see lib/http/pages-api.ts.
export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };
export default pagesApiRoute(getCreativeThumbnailOperation, ["id", "width", "tag"]);
