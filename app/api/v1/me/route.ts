import { getMe } from "@/lib/api/v1/account";
import { routeMethods } from "@/lib/http/operation";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE } = routeMethods({ GET: getMe });
