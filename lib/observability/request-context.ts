import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage } from "node:http";

/**
 * The request being served, for logs. Set at the HTTP server (lib/server/http-observer.ts,
 * before Next.js sees the request), so every log line written while serving it carries its id,
 * whichever route, page or library writes it.
 */
export interface RequestContext {
  requestId: string;
  /** Set when the client went away before the answer was complete (lib/server/http-observer.ts). */
  aborted?: boolean;
  /**
   * The Node request the route's web Request was made from: a route streaming a large body reads it
   * directly (lib/http/node-request-body.ts) rather than through the web stream wrapped around it.
   */
  incoming?: IncomingMessage;
}

// The one value besides the service registry kept on globalThis: logging reads it before any registry
// exists (configuration errors at start) and in every bundle Next.js loads.
const g = globalThis as unknown as { __adloomRequestContext?: AsyncLocalStorage<RequestContext> };
export const requestContext = (g.__adloomRequestContext ??= new AsyncLocalStorage<RequestContext>());

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

/** Whether the client of the request being served has gone away (its failure is then not ours to report). */
export function currentRequestAborted(): boolean {
  return requestContext.getStore()?.aborted === true;
}
