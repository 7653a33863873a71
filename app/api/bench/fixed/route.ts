import { errorResponse } from "@/lib/http/responses";

export const dynamic = "force-dynamic";

const BODY = JSON.stringify({ ok: true, account: { id: "usr_fixed", name: "Fixed", email: "fixed@example.com" } });

/**
 * The baseline of `npm run bench:api`: a bare route handler returning fixed JSON
 * from the same build. Off (404) unless the server was started with ADLOOM_BENCH=1.
 */
export function GET(): Response {
  if (process.env.ADLOOM_BENCH !== "1") return errorResponse("not_found", "No API route GET /api/bench/fixed");
  return new Response(BODY, { headers: { "Content-Type": "application/json; charset=utf-8" } });
}
