import { createUploadsOperation, listUploadsOperation } from "@/lib/api/v1/uploads";
import { routeMethods } from "@/lib/http/operation";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";
// Large video uploads stream for a while on slow links.
export const maxDuration = 3600;
export const { GET, POST, PUT, PATCH, DELETE } = routeMethods({ GET: listUploadsOperation, POST: createUploadsOperation });
