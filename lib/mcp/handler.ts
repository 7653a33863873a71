import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Principal } from "@/lib/auth/principal";
import { isAppError } from "@/lib/errors";
import { requireActivePlan } from "@/lib/http/authenticate";
import { runPipeline } from "@/lib/http/pipeline";
import { parseJsonText, readBodyText } from "@/lib/http/request-body";
import { json } from "@/lib/http/responses";
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
 * transport, acting as the Bearer key's principal, after the same pipeline as every API route
 * (a bad key is HTTP 401 with WWW-Authenticate; a lapsed plan is the protocol's own -32002).
 */
export async function handleMcpRequest(request: Request): Promise<Response> {
  const rejectedKey = isRejectedApiKey(request);
  const response = await serveMcp(request, rejectedKey ? {} : { "WWW-Authenticate": WWW_AUTHENTICATE });
  return rejectedKey && response.status === 401 ? new Response(response.body, { status: 403, headers: response.headers }) : response;
}

function serveMcp(request: Request, unauthorizedHeaders: Record<string, string>): Promise<Response> {
  return runPipeline(request, { plan: "defer", unauthorizedHeaders }, async ({ principal }) => {
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
        authInfo: { token: principal.keyId ?? "", clientId: principal.keyId ?? principal.userId, scopes: principal.scopes ?? [], extra: { workspaceId: principal.workspaceId } },
      });
    } finally {
      await server.close();
    }
  });
}
