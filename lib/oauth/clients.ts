import type { OAuthClientInformationFull } from "@modelcontextprotocol/sdk/shared/auth.js";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { enforceRateLimit } from "@/lib/rate-limit/rate-limit";
import { getConfig } from "@/lib/services";
import { OAuthError } from "./errors";

const MAX_REDIRECT_URIS = 10;
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** https anywhere, http only to this machine (RFC 8252 loopback redirects); never a fragment. */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${JSON.stringify(uri)} is not an absolute URL`;
  }
  if (url.hash || uri.includes("#")) return `${uri} must not contain a fragment`;
  if (url.username || url.password) return `${uri} must not contain credentials`;
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return `${uri} must use https, or http to localhost or 127.0.0.1`;
}

const registrationSchema = z.object({
  redirect_uris: z.array(z.string().max(2000)).min(1, "at least one redirect URI is required").max(MAX_REDIRECT_URIS),
  client_name: z.string().trim().min(1).max(100).optional(),
  client_uri: z.string().max(2000).optional(),
  scope: z.string().max(1000).optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  token_endpoint_auth_method: z.string().optional(),
});

/**
 * RFC 7591 dynamic client registration of a public client. A client asking for a secret
 * (client_secret_post/basic) is registered as public anyway (RFC 7591 §3.2.1 lets the server
 * replace values): the answer's `token_endpoint_auth_method: "none"` tells it so; PKCE protects the code.
 */
export async function registerClient(body: unknown): Promise<OAuthClientInformationFull> {
  const parsed = registrationSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join(".") || "body";
    throw new OAuthError(field.startsWith("redirect_uris") ? "invalid_redirect_uri" : "invalid_client_metadata", `${field}: ${issue.message}`);
  }
  const input = parsed.data;
  for (const uri of input.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError("invalid_redirect_uri", `redirect_uris: ${problem}`);
  }
  const grantTypes = input.grant_types ?? ["authorization_code", "refresh_token"];
  const unsupportedGrant = grantTypes.find((g) => g !== "authorization_code" && g !== "refresh_token");
  if (unsupportedGrant)
    throw new OAuthError("invalid_client_metadata", `grant_types: ${unsupportedGrant} is not supported (authorization_code and refresh_token are)`);
  if (!grantTypes.includes("authorization_code")) throw new OAuthError("invalid_client_metadata", "grant_types: authorization_code is required");
  const unsupportedResponse = (input.response_types ?? ["code"]).find((r) => r !== "code");
  if (unsupportedResponse) throw new OAuthError("invalid_client_metadata", `response_types: ${unsupportedResponse} is not supported (only code)`);
  if (input.client_uri && !/^https?:\/\//.test(input.client_uri)) throw new OAuthError("invalid_client_metadata", "client_uri: must be an http(s) URL");

  // The endpoint is open to anyone: valid registrations are capped service-wide (429 past it).
  await enforceRateLimit("oauth-register", getConfig().oauthServer.registrationsPerMinute);
  const client = await getDb().oAuthClient.create({
    data: {
      id: newId("oac", 24),
      name: input.client_name ?? "MCP client",
      redirectUris: [...new Set(input.redirect_uris)],
      scope: input.scope ?? null,
      clientUri: input.client_uri ?? null,
    },
  });
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    ...(client.scope ? { scope: client.scope } : {}),
    ...(client.clientUri ? { client_uri: client.clientUri } : {}),
  };
}

export interface RegisteredClient {
  id: string;
  name: string;
  redirectUris: string[];
  clientUri: string | null;
}

/** The registered client, or invalid_client. */
export async function findClient(clientId: string | null | undefined): Promise<RegisteredClient> {
  if (!clientId) throw new OAuthError("invalid_request", "client_id is required");
  if (clientId.length > 100) throw new OAuthError("invalid_client", "Unknown client_id");
  const client = await getDb().oAuthClient.findUnique({ where: { id: clientId }, select: { id: true, name: true, redirectUris: true, clientUri: true } });
  if (!client) throw new OAuthError("invalid_client", `Unknown client_id ${clientId}: register the client first (POST /api/oauth/register)`);
  return client;
}
