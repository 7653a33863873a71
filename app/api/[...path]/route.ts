import { errorResponse } from "@/lib/http/responses";
import { metricsResponse } from "@/lib/server/metrics-endpoint";

// Any /api path no route matches answers in the error envelope, not with an HTML page.
// METRICS_PATH (configurable, so not a route of its own) is answered here too.
export const dynamic = "force-dynamic";
const notFound = async (request: Request) =>
  (await metricsResponse(request)) ?? errorResponse("not_found", `No API route ${request.method} ${new URL(request.url).pathname}`);
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
