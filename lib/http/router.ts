import { AppError } from "@/lib/errors";
import { handle, type OperationDef, type OperationMethod, type RouteHandler } from "./operation";
import { errorResponse, newRequestId, REQUEST_ID_HEADER, toErrorResponse } from "./responses";
import { urlOf } from "./request-url";

interface Route {
  /** Path segments; `{name}` segments capture a parameter. */
  segments: string[];
  methods: Partial<Record<OperationMethod, RouteHandler>>;
}

function splitPath(path: string): string[] {
  return path.split("/").filter(Boolean);
}

/** Decodes each segment of a request path; a malformed escape is the client's error. */
function decodeSegments(pathname: string): string[] {
  try {
    return splitPath(pathname).map(decodeURIComponent);
  } catch {
    throw new AppError("invalid_request", "The request path has a malformed percent-escape");
  }
}

/** Matches literal segments before parameters, so `/webhooks/test` wins over `/webhooks/{id}`. */
function match(route: Route, segments: string[]): Record<string, string> | null {
  if (route.segments.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (const [i, pattern] of route.segments.entries()) {
    const value = segments[i]!;
    if (pattern.startsWith("{")) params[pattern.slice(1, -1)] = value;
    else if (pattern !== value) return null;
  }
  return params;
}

function specificity(route: Route): number {
  return route.segments.reduce((score, s, i) => score + (s.startsWith("{") ? 0 : 2 ** (16 - i)), 0);
}

/**
 * One handler for every operation under a prefix: finds the operation by path template and
 * method, answers 405 (with Allow) for a known path and another method, 404 for unknown paths.
 */
export function createRouter(operations: OperationDef<any, any, any, any>[]): RouteHandler {
  const byPath = new Map<string, Route>();
  for (const op of operations) {
    const route = byPath.get(op.path) ?? { segments: splitPath(op.path), methods: {} };
    if (route.methods[op.method]) throw new Error(`Two operations answer ${op.method} ${op.path}`);
    route.methods[op.method] = handle(op);
    byPath.set(op.path, route);
  }
  const routes = [...byPath.values()].sort((a, b) => specificity(b) - specificity(a));

  return async (request) => {
    const { pathname } = urlOf(request);
    let segments: string[];
    try {
      segments = decodeSegments(pathname);
    } catch (err) {
      const requestId = newRequestId();
      const response = toErrorResponse(err, requestId);
      response.headers.set(REQUEST_ID_HEADER, requestId);
      return response;
    }
    for (const route of routes) {
      const params = match(route, segments);
      if (!params) continue;
      const handler = route.methods[request.method as OperationMethod];
      if (handler) return handler(request, { params: Promise.resolve(params) });
      // HEAD of a GET route: its answer's status and headers, without the body.
      if (request.method === "HEAD" && route.methods.GET) return headOf(await route.methods.GET(request, { params: Promise.resolve(params) }));
      const allowed = Object.keys(route.methods).join(", ");
      return errorResponse("method_not_allowed", `Method not allowed; this path supports ${allowed}`, { Allow: allowed });
    }
    return errorResponse("not_found", `No API route ${request.method} ${pathname}`);
  };
}

function headOf(response: Response): Response {
  void response.body?.cancel();
  return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
}
