import { getCreativeVersionMediaOperation } from "@/lib/api/version-media";
import { pagesApiRoute } from "@/lib/http/pages-api";

// A Pages API route so the response keeps Content-Length (see lib/http/pages-api.ts).
export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };
export default pagesApiRoute(getCreativeVersionMediaOperation, ["id", "number"]);
