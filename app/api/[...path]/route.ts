import { errorResponse } from "@/lib/http/responses";

// Any /api path no route matches answers in the error envelope, not with an HTML page.
export const dynamic = "force-dynamic";
const notFound = (request: Request) => errorResponse("not_found", `No API route ${request.method} ${new URL(request.url).pathname}`);
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
