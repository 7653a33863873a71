import type { IncomingMessage, ServerResponse } from "node:http";
import { sendWebResponse } from "@/lib/http/pages-api";
import { errorResponse } from "@/lib/http/responses";

export const config = { api: { bodyParser: false, externalResolver: true } };

const BODY = JSON.stringify({ ok: true, account: { id: "usr_fixed", name: "Fixed", email: "fixed@example.com" } });

/**
 * The second baseline of `npm run bench:api`: a bare Pages API route (the kind /api/v1 is served as)
 * writing fixed JSON to Node's response, the least Next.js does for an API request.
 * Off (404) unless the server was started with ADLOOM_BENCH=1, like app/api/bench/fixed.
 */
export default async function handler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (process.env.ADLOOM_BENCH !== "1") return sendWebResponse(req, res, errorResponse("not_found", "No API route GET /api/bench/pages-fixed"));
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.end(BODY);
}
