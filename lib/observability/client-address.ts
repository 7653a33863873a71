import net from "node:net";
import ipaddr from "ipaddr.js";
import { requestContext } from "@/lib/observability/request-context";
import { getConfig } from "@/lib/services";

/**
 * Where a request came from, as limits per client count it (the sign-in throttle). The connection's peer, unless
 * TRUST_PROXY_HOPS says that many reverse proxies stand in front of the server: each of them appends the address it
 * received from to X-Forwarded-For, so the entry that many places from the right (the peer counting as the last
 * entry) is the address the outermost proxy saw. Entries further left are whatever the client wrote, never trusted.
 * With 0 (the default) the header is ignored: anyone can send it.
 *
 * An IPv6 client is counted by its /64: one subscriber gets a whole /64, and would otherwise have 2^64 addresses to
 * spread attempts over. IPv4 addresses mapped into IPv6 (`::ffff:1.2.3.4`) read as IPv4.
 */
export function clientAddressFrom(peer: string | undefined, rawHeaders: readonly string[], trustedHops: number): string {
  const chain: string[] = [];
  if (trustedHops > 0) {
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
      if (rawHeaders[i]!.toLowerCase() !== "x-forwarded-for") continue;
      for (const entry of rawHeaders[i + 1]!.split(",")) if (entry.trim()) chain.push(entry.trim());
    }
  }
  chain.push(peer ?? "");
  const chosen = chain[Math.max(0, chain.length - 1 - trustedHops)]!;
  return addressKey(chosen) ?? addressKey(peer ?? "") ?? "unknown";
}

/** The address as limits count it (see clientAddressFrom); undefined for anything that is not an IP address. */
export function addressKey(text: string): string | undefined {
  const address = withoutPort(text.trim()).replace(/%.*$/, "");
  const family = net.isIP(address);
  if (family === 4) return address;
  if (family !== 6) return undefined;
  const parsed = ipaddr.IPv6.parse(address);
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}

/** `1.2.3.4:5678` and `[2001:db8::1]:443` (some proxies write the port): the address alone. */
function withoutPort(text: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) return bracketed[1]!;
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(text);
  return v4WithPort ? v4WithPort[1]! : text;
}

/**
 * The client address of the request being served (the HTTP server records its connection in the request context,
 * lib/server/http-observer.ts); "unknown" outside a request.
 */
export function currentClientAddress(): string {
  const incoming = requestContext.getStore()?.incoming;
  if (!incoming) return "unknown";
  return clientAddressFrom(incoming.socket?.remoteAddress, incoming.rawHeaders, getConfig().http.trustProxyHops);
}
