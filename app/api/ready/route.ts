import { json } from "@/lib/http/responses";
import { checkReadiness } from "@/lib/server/readiness";

export const dynamic = "force-dynamic";

/**
 * Readiness, for load balancers: 200 when this instance should get traffic; 503 with the same
 * checks otherwise (starting, shutting down, database or migrations not there). A probe, not an
 * API operation: the body is the checks, not the error envelope.
 * Liveness (the process answers at all) is /api/health.
 */
export async function GET(): Promise<Response> {
  const { ready, checks } = await checkReadiness();
  return json({ ok: ready, checks }, ready ? 200 : 503);
}
