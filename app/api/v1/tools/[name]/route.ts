import { callToolOperation } from "@/lib/api/v1/tools";
import { routeMethods } from "@/lib/http/operation";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE } = routeMethods({ POST: callToolOperation });
