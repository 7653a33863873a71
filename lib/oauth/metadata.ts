import type { OAuthMetadata, OAuthProtectedResourceMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";
import { SCOPES } from "@/lib/auth/scopes";
import { mcpResourceUrl, OAUTH_ENDPOINTS } from "./urls";

/** RFC 9728 metadata of the MCP endpoint: we are our own authorization server. */
export function protectedResourceMetadata(origin: string): OAuthProtectedResourceMetadata {
  return {
    resource: mcpResourceUrl(origin),
    authorization_servers: [origin],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "Adloom MCP",
    resource_documentation: `${origin}/docs`,
  };
}

/** RFC 8414 metadata: authorization code with PKCE S256 only, public clients registered dynamically. */
export function authorizationServerMetadata(origin: string): OAuthMetadata {
  return {
    issuer: origin,
    authorization_endpoint: origin + OAUTH_ENDPOINTS.authorize,
    token_endpoint: origin + OAUTH_ENDPOINTS.token,
    registration_endpoint: origin + OAUTH_ENDPOINTS.register,
    revocation_endpoint: origin + OAUTH_ENDPOINTS.revoke,
    scopes_supported: [...SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    code_challenge_methods_supported: ["S256"],
    // RFC 9207: the redirect back carries `iss`, so a client talking to several servers can tell them apart.
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${origin}/docs`,
  };
}
