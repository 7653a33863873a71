import { handleMcpPreflight, handleMcpRequest } from "@/lib/mcp/handler";

// MCP (Streamable HTTP, stateless, JSON responses) over the same Bearer keys as /api/v1.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export { handleMcpRequest as POST, handleMcpRequest as GET, handleMcpRequest as DELETE, handleMcpPreflight as OPTIONS };
