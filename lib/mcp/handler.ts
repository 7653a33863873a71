import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Principal } from "@/lib/auth/principal";
import { AppError, isAppError } from "@/lib/errors";
import { authenticateRequest, requireActivePlan, requireActiveWorkspace } from "@/lib/http/authenticate";
import { enforceRateLimit, rateLimitHeaders, type RateLimitResult } from "@/lib/http/rate-limit";
import { parseJsonText, readBodyText } from "@/lib/http/request-body";
import { json, REQUEST_ID_HEADER, toErrorResponse } from "@/lib/http/responses";
import { createMcpServer, SUBSCRIPTION_REQUIRED_RPC_CODE } from "./server";

const WWW_AUTHENTICATE = 'Bearer realm="adloom", error_description="Send Authorization: Bearer <API_KEY>"';

/**
 * An Adloom API key that is wrong or revoked. MCP clients read any 401 as "start OAuth" (the
 * MCP authorization spec), which would hide the real problem behind a sign-in flow; a key the
 * caller chose is answered 403 with the envelope's message, so the client shows it. A request
 * without a key (or with a token that is not an Adloom key) keeps 401 + WWW-Authenticate.
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
 * transport, acting as the Bearer key's principal. A bad key is HTTP 401 with WWW-Authenticate.
 */
export async function handleMcpRequest(request: Request): Promise<Response> {
  const requestId = `req_${randomUUID().replace(/-/g, "")}`;
  let limits: RateLimitResult | undefined;
  let response: Response;
  try {
    const principal = await authenticateRequest(request);
    limits = await enforceRateLimit(principal.keyId ?? `user:${principal.userId}`);
    requireActiveWorkspace(principal);
    if (request.method !== "POST") {
      // Stateless: there is no session to stream server-initiated messages on or to delete.
      response = rpcError(405, -32000, "Method not allowed: this MCP endpoint is stateless and takes POST only");
      response.headers.set("Allow", "POST");
    } else {
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
        response = await transport.handleRequest(request, {
          parsedBody,
          authInfo: { token: principal.keyId ?? "", clientId: principal.keyId ?? principal.userId, scopes: principal.scopes ?? [], extra: { workspaceId: principal.workspaceId } },
        });
      } finally {
        await server.close();
      }
    }
  } catch (err) {
    response = toErrorResponse(err, requestId);
    if (isAppError(err) && (err as AppError).code === "unauthorized") {
      if (isRejectedApiKey(request)) response = new Response(response.body, { status: 403, headers: response.headers });
      else response.headers.set("WWW-Authenticate", WWW_AUTHENTICATE);
    }
  }
  response.headers.set(REQUEST_ID_HEADER, requestId);
  if (limits && !response.headers.has("X-RateLimit-Limit")) for (const [k, v] of Object.entries(rateLimitHeaders(limits))) response.headers.set(k, v);
  return response;
}
