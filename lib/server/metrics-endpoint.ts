import { createHash, timingSafeEqual } from "node:crypto";
import { getConfig } from "@/lib/services";
import { errorResponse } from "@/lib/http/responses";
import { metrics } from "@/lib/observability/metrics";

const digest = (s: string) => createHash("sha256").update(s).digest();

/**
 * Answers GET METRICS_PATH (reached through the /api catch-all route, so the path is configuration):
 * the Prometheus text format, for `Authorization: Bearer <METRICS_TOKEN>`. Null for any other path.
 * Without METRICS_TOKEN the path is an ordinary unknown route (404): metrics are never public.
 */
export async function metricsResponse(request: Request): Promise<Response | null> {
  const { path, token } = getConfig().metrics;
  if (!token || new URL(request.url).pathname !== path) return null;
  if (request.method !== "GET") return errorResponse("method_not_allowed", `Use GET ${path}`, { Allow: "GET" });
  const presented = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
  if (!timingSafeEqual(digest(presented), digest(token))) {
    return errorResponse("unauthorized", "Metrics need Authorization: Bearer <METRICS_TOKEN>", { "WWW-Authenticate": 'Bearer realm="metrics"' });
  }
  const { registry } = metrics();
  return new Response(await registry.metrics(), { status: 200, headers: { "Content-Type": registry.contentType, "Cache-Control": "no-store" } });
}
