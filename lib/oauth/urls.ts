/** The one protected resource: the MCP endpoint. Tokens are bound to its URL (RFC 8707 audience). */
export const MCP_PATH = "/api/mcp";

export const OAUTH_ENDPOINTS = {
  authorize: "/api/oauth/authorize",
  token: "/api/oauth/token",
  register: "/api/oauth/register",
  revoke: "/api/oauth/revoke",
  consent: "/api/oauth/consent",
  consentPage: "/dashboard/oauth/consent",
} as const;

/** The MCP endpoint's URL for an origin such as `https://adloom.example`. */
export const mcpResourceUrl = (origin: string) => `${origin}${MCP_PATH}`;

/** RFC 9728 metadata of the MCP endpoint, at the path-suffixed well-known location. */
export const resourceMetadataUrl = (origin: string) => `${origin}/.well-known/oauth-protected-resource${MCP_PATH}`;

/** Whether a `resource` parameter names our MCP endpoint (a trailing slash is tolerated). */
export function isOurResource(resource: string, origin: string): boolean {
  return resource.replace(/\/$/, "") === mcpResourceUrl(origin);
}
