import { dismissUploadOperation, getUploadOperation, retryUploadOperation } from "@/lib/api/v1/uploads";
import { routeMethods } from "@/lib/http/operation";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE } = routeMethods({ GET: getUploadOperation, POST: retryUploadOperation, DELETE: dismissUploadOperation });
