import { operations } from "@/lib/api/v1";
import { pagesApiHandler } from "@/lib/http/pages-api";
import { createRouter } from "@/lib/http/router";

// Every /api/v1 operation (the tool catalog's routes and every tool's REST binding) behind one router,
// served as a Pages API route: Next.js does less than half the work per request there (lib/http/pages-api.ts).
export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };
export default pagesApiHandler(createRouter(operations), { allow: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS" });
