import { isAppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { isOAuthError, OAuthError } from "@/lib/oauth/errors";
import { findTextInputProblem } from "@/lib/text-input";
import { readBodyText } from "./request-body";
import { json, newRequestId, REQUEST_ID_HEADER } from "./responses";

const OAUTH_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * Runs an OAuth endpoint: protocol errors answer `{ error, error_description }` with their status
 * (RFC 6749 §5.2), never the API envelope and never a 5xx for bad input; nothing is cached.
 */
export async function oauthRoute(handler: () => Promise<Response>): Promise<Response> {
  const requestId = newRequestId();
  let response: Response;
  try {
    response = await handler();
  } catch (err) {
    if (isOAuthError(err)) response = oauthErrorResponse(err);
    else if (isAppError(err) && err.code === "rate_limited") {
      response = json({ error: "temporarily_unavailable", error_description: err.message }, 429);
      for (const [name, value] of Object.entries(err.headers)) response.headers.set(name, value);
    } else if (isAppError(err) && err.status < 500) response = json({ error: "invalid_request", error_description: err.message }, 400);
    else {
      log.error("oauth endpoint failed", { requestId, err });
      response = json({ error: "server_error", error_description: `Something went wrong on our side; the request id is ${requestId}` }, 500);
    }
  }
  response.headers.set(REQUEST_ID_HEADER, requestId);
  response.headers.set("Cache-Control", "no-store");
  return response;
}

/** `status` overrides the error's own, e.g. 400 for an unknown client at the authorization endpoint (a page, not a client authentication). */
export function oauthErrorResponse(err: OAuthError, status = err.status): Response {
  return json({ error: err.error, error_description: err.description }, status);
}

/** A form-encoded (or JSON) body as a flat record of strings; repeated fields keep the first value. */
export async function readOAuthBody(request: Request): Promise<Record<string, string>> {
  const text = await readBodyText(request, OAUTH_BODY_LIMIT_BYTES);
  const type = request.headers.get("content-type") ?? "";
  let fields: Record<string, unknown>;
  if (type.includes("application/json")) {
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      throw new OAuthError("invalid_request", "The body is not valid JSON");
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new OAuthError("invalid_request", "The body must be an object");
    fields = parsed as Record<string, unknown>;
  } else {
    fields = {};
    for (const [k, v] of new URLSearchParams(text)) if (!(k in fields)) fields[k] = v;
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) if (typeof v === "string") out[k] = v;
  assertCleanText(out);
  return out;
}

/** Refuses NUL bytes, lone surrogates and over-long values before they reach the database. */
export function assertCleanText(value: unknown): void {
  const problem = findTextInputProblem(value, { maxStringLength: 4000 });
  if (problem) throw new OAuthError("invalid_request", `${problem.path}: ${problem.reason}`);
}

/** CORS for the endpoints browser-based MCP clients call (metadata, registration, token, revocation). */
export const OAUTH_CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, MCP-Protocol-Version",
  "Access-Control-Max-Age": "600",
};

export function withCors(response: Response): Response {
  for (const [k, v] of Object.entries(OAUTH_CORS_HEADERS)) response.headers.set(k, v);
  return response;
}

export const corsPreflight = () => withCors(new Response(null, { status: 204 }));
