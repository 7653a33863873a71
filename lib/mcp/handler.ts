import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Principal } from "@/lib/auth/principal";
import { isAppError } from "@/lib/errors";
import { requireActivePlan } from "@/lib/http/authenticate";
import { runPipeline } from "@/lib/http/pipeline";
import { parseJsonText, readBodyText } from "@/lib/http/request-body";
import { requestOrigin } from "@/lib/http/request-origin";
import { mcpResourceUrl, resourceMetadataUrl } from "@/lib/oauth/urls";
import { errorResponse, json } from "@/lib/http/responses";
import { isAllowedMcpOrigin, MCP_CORS_METHODS, mcpCorsHeaders, mcpPreflightHeaders } from "./origin";
import { createMcpServer, SUBSCRIPTION_REQUIRED_RPC_CODE } from "./server";

/**
 * The 401 challenge (MCP authorization spec, RFC 6750 §3 and RFC 9728 §5.1): where the protected-resource
 * metadata is, so an OAuth-capable client can discover the authorization server; with
 * `error="invalid_token"` when a credential was sent (an API key or an OAuth access token) but is
 * wrong, expired or revoked. The body still says which, in the error envelope.
 */
function wwwAuthenticate(origin: string, tokenSent: boolean): string {
  const base = `Bearer realm="adloom", resource_metadata="${resourceMetadataUrl(origin)}"`;
  return tokenSent ? `${base}, error="invalid_token", error_description="The API key or access token is invalid, expired or revoked"` : base;
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
 * as every API route (a missing or invalid credential is HTTP 401 with WWW-Authenticate; a lapsed plan
 * is the protocol's own -32002). A browser origin that is not allowed is refused first (403).
 */
export async function handleMcpRequest(request: Request): Promise<Response> {
  const browserOrigin = request.headers.get("origin");
  if (!isAllowedMcpOrigin(browserOrigin)) return refusedOrigin(browserOrigin!);
  const origin = requestOrigin(request);
  const challenge = { "WWW-Authenticate": wwwAuthenticate(origin, request.headers.has("authorization")) };
  const response = await serveMcp(request, mcpResourceUrl(origin), challenge);
  for (const [k, v] of Object.entries(mcpCorsHeaders(browserOrigin))) response.headers.set(k, v);
  return response;
}

/** CORS preflight: 204 with the allowed origin named, or 403 for any other origin. */
export function handleMcpPreflight(request: Request): Response {
  const browserOrigin = request.headers.get("origin");
  if (!isAllowedMcpOrigin(browserOrigin)) return refusedOrigin(browserOrigin!);
  return new Response(null, { status: 204, headers: { ...mcpPreflightHeaders(browserOrigin), Allow: MCP_CORS_METHODS } });
}

function refusedOrigin(origin: string): Response {
  return errorResponse("forbidden", `Origin ${JSON.stringify(origin).slice(0, 200)} is not allowed to call this MCP endpoint (MCP_ALLOWED_ORIGINS)`, {
    Vary: "Origin",
  });
}

function serveMcp(request: Request, resource: string, unauthorizedHeaders: Record<string, string>): Promise<Response> {
  return runPipeline(request, { plan: "defer", oauthResource: resource, unauthorizedHeaders }, async ({ principal, requestId }) => {
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
    const server = createMcpServer(principal, requestId, planBlock(principal));
    // tools/call answers as an event stream, so its progress, log messages and resources/list_changed
    // reach the client before the result (a stateless server has no other stream); the rest is JSON.
    const streamed = isToolCall(parsedBody);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !streamed });
    await server.connect(transport);
    let response: Response;
    try {
      response = await transport.handleRequest(request, {
        parsedBody,
        authInfo: {
          token: principal.keyId ?? "",
          clientId: principal.keyId ?? principal.userId,
          scopes: principal.scopes ?? [],
          extra: { workspaceId: principal.workspaceId },
        },
      });
    } catch (err) {
      await server.close();
      throw err;
    }
    if (!streamed || !response.body) {
      await server.close();
      return response;
    }
    // The stream outlives this function: the server is closed once the answer has been sent.
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        flush: () => void server.close().catch(() => undefined),
      }),
    );
    return new Response(body, { status: response.status, headers: response.headers });
  });
}

function isToolCall(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => typeof m === "object" && m !== null && (m as { method?: unknown }).method === "tools/call");
}
