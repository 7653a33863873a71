import { getDb } from "@/lib/db/client";
import { errorResponse, json } from "@/lib/http/responses";

export const dynamic = "force-dynamic";

/** Liveness and database reachability, for load balancers and tests. Unauthenticated; reveals nothing. */
export async function GET(): Promise<Response> {
  try {
    await getDb().$queryRaw`SELECT 1`;
    return json({ ok: true });
  } catch {
    return errorResponse("internal_error", "Database unavailable");
  }
}
