import { deleteCopyOperation, listCopiesOperation, saveCopyOperation } from "@/lib/api/v1/copy";
import { routeMethods } from "@/lib/http/operation";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE } = routeMethods({ GET: listCopiesOperation, POST: saveCopyOperation, DELETE: deleteCopyOperation });
