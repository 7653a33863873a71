import { getConfig } from "@/lib/services";

/**
 * DNS-rebinding protection and CORS for /api/mcp (MCP transport spec, Security Warning): a browser
 * request whose `Origin` is not configured is refused with 403 before anything else, whatever its
 * `Host` says (a rebinding attacker controls both). Requests without `Origin` come from non-browser
 * clients and pass. Allowed origins are PUBLIC_BASE_URL's and MCP_ALLOWED_ORIGINS (lib/config.ts);
 * CORS answers name the one allowed origin, never `*`.
 */
export function isAllowedMcpOrigin(origin: string | null): boolean {
  return origin === null || getConfig().mcp.allowedOrigins.includes(origin);
}

export const MCP_CORS_METHODS = "GET, POST, DELETE, OPTIONS";

/** The CORS headers for a request from an allowed origin (none without `Origin`); `Vary: Origin` always. */
export function mcpCorsHeaders(origin: string | null): Record<string, string> {
  if (origin === null) return { Vary: "Origin" };
  return {
    Vary: "Origin",
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Expose-Headers": "WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version, X-Request-Id, Retry-After",
  };
}

/** Preflight answer headers for an allowed origin. */
export function mcpPreflightHeaders(origin: string | null): Record<string, string> {
  return {
    ...mcpCorsHeaders(origin),
    "Access-Control-Allow-Methods": MCP_CORS_METHODS,
    "Access-Control-Allow-Headers": "Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Session-Id, Last-Event-ID",
    "Access-Control-Max-Age": "600",
  };
}
