import { getConfig } from "@/lib/services";

/**
 * This service's origin as the client reached it: PUBLIC_BASE_URL when set, else the request's
 * host (so OAuth metadata, the issuer, the MCP resource URL and emailed links match the URL a
 * client connected to). `fallback` is the URL's own origin when the request carries one.
 */
export function originFromHeaders(headers: Headers, fallback: { host: string; protocol: string } = { host: "localhost", protocol: "http" }): string {
  if (process.env.PUBLIC_BASE_URL) return getConfig().publicBaseUrl;
  const host = headers.get("x-forwarded-host") ?? headers.get("host") ?? fallback.host;
  const proto = headers.get("x-forwarded-proto") ?? fallback.protocol;
  return `${proto}://${host}`;
}

export function requestOrigin(request: Request): string {
  const url = new URL(request.url);
  return originFromHeaders(request.headers, { host: url.host, protocol: url.protocol.replace(/:$/, "") });
}
