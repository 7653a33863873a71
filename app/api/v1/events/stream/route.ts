import { streamEvents } from "@/lib/api/v1/webhooks";
import { routeMethods } from "@/lib/http/operation";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE } = routeMethods({ GET: streamEvents });
