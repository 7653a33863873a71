import { handleMcpPreflight, handleMcpRequest } from "@/lib/mcp/handler";
import { pagesApiHandler } from "@/lib/http/pages-api";

// MCP (Streamable HTTP, stateless) over the same Bearer keys as /api/v1, served as a Pages API route like /api/v1
// (lib/http/pages-api.ts). It answers CORS itself: only allowed origins, named (lib/mcp/origin.ts).
export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };
export default pagesApiHandler(handleMcpRequest, { preflight: handleMcpPreflight });
