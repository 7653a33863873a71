import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Principal } from "@/lib/auth/principal";
import { isAppError } from "@/lib/errors";
import { requireActivePlan } from "@/lib/http/authenticate";
import { runPipeline } from "@/lib/http/pipeline";
import { parseJsonText, readBodyText } from "@/lib/http/request-body";
import { requestOrigin } from "@/lib/http/request-origin";
import { mcpResourceUrl, resourceMetadataUrl } from "@/lib/oauth/urls";
import { json } from "@/lib/http/responses";
import { createMcpServer, SUBSCRIPTION_REQUIRED_RPC_CODE } from "./server";

/**
 * The 401 challenge (MCP authorization spec, RFC 9728 §5.1): where the protected-resource
 * metadata is, so an OAuth-capable client can discover the authorization server; with
 * `error="invalid_token"` when a token was sent but is expired, revoked or unknown.
 */
function wwwAuthenticate(origin: string, tokenSent: boolean): string {
  const base = `Bearer realm="adloom", resource_metadata="${resourceMetadataUrl(origin)}"`;
  return tokenSent ? `${base}, error="invalid_token", error_description="The access token is invalid, expired or revoked"` : base;
}

/**
 * An Adloom API key that is wrong or revoked. MCP clients read any 401 as "start OAuth" (the
 * MCP authorization spec), which would hide the real problem behind a sign-in flow; a key the
 * caller chose is answered 403 with the envelope's message, so the client shows it. A request
 * without a token, or with an OAuth token that no longer works, gets 401 + WWW-Authenticate.
 */
function isRejectedApiKey(request: Request): boolean {
  return /^Bearer\s+adl_/i.test(request.headers.get("authorization") ?? "");
}

function rpcError(status: number, code: number, message: string): Response {
  return json({ jsonrpc: "2.0", id: null, error: { code, message } }, status);
}

/** Which plan failure, if any, turns every MCP request into -32002 (the protocol still answers). */
function planBlock(principal: Principal): { code: number; message: string } | undefined {
  try {
    requireActivePlan(principal);
    return undefined;
  } catch (err) {
    if (isAppError(err) && err.code === "subscription_required") return { code: SUBSCRIPTION_REQUIRED_RPC_CODE, message: err.message };
    throw err;
  }
}

/**
 * MCP over Streamable HTTP at /api/mcp, stateless: every POST gets its own server and
 * transport, acting as the Bearer key's (or OAuth access token's) principal, after the same pipeline
 * as every API route (no token is HTTP 401 with WWW-Authenticate; a lapsed plan is the protocol's own -32002).
 */
export async function handleMcpRequest(request: Request): Promise<Response> {
  const origin = requestOrigin(request);
  const rejectedKey = isRejectedApiKey(request);
  const challenge: Record<string, string> = rejectedKey ? {} : { "WWW-Authenticate": wwwAuthenticate(origin, request.headers.has("authorization")) };
  const response = await serveMcp(request, mcpResourceUrl(origin), challenge);
  return rejectedKey && response.status === 401 ? new Response(response.body, { status: 403, headers: response.headers }) : response;
}

function serveMcp(request: Request, resource: string, unauthorizedHeaders: Record<string, string>): Promise<Response> {
  return runPipeline(request, { plan: "defer", oauthResource: resource, unauthorizedHeaders }, async ({ principal }) => {
    if (request.method !== "POST") {
      // Stateless: there is no session to stream server-initiated messages on or to delete.
      const response = rpcError(405, -32000, "Method not allowed: this MCP endpoint is stateless and takes POST only");
      response.headers.set("Allow", "POST");
      return response;
    }
    let parsedBody: unknown;
    try {
      parsedBody = parseJsonText(await readBodyText(request));
    } catch (err) {
      return rpcError(400, -32700, `Parse error: ${(err as Error).message}`);
    }
    const server = createMcpServer(principal, planBlock(principal));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, {
        parsedBody,
        authInfo: {
          token: principal.keyId ?? "",
          clientId: principal.keyId ?? principal.userId,
          scopes: principal.scopes ?? [],
          extra: { workspaceId: principal.workspaceId },
        },
      });
    } finally {
      await server.close();
    }
  });
}
