import { operations } from "@/lib/api/v1";
import { createRouter } from "@/lib/http/router";

// Every /api/v1 operation (the tool catalog's routes and every tool's REST binding) behind one router.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
// Large video uploads stream for a while on slow links.
export const maxDuration = 3600;

const route = createRouter(operations);
export { route as GET, route as HEAD, route as POST, route as PUT, route as PATCH, route as DELETE };
