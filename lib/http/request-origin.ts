import { getConfig } from "@/lib/services";

/**
 * This service's origin as the client reached it: PUBLIC_BASE_URL when set, else the request's
 * host (so OAuth metadata, the issuer and the MCP resource URL match the URL a client connected to).
 */
export function requestOrigin(request: Request): string {
  if (process.env.PUBLIC_BASE_URL) return getConfig().publicBaseUrl;
  const url = new URL(request.url);
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host") ?? url.host;
  const proto = request.headers.get("x-forwarded-proto") ?? url.protocol.replace(/:$/, "");
  return `${proto}://${host}`;
}
