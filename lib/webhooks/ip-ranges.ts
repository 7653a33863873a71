import net from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Which IP addresses a webhook may be delivered to. Everything that is not globally
 * routable unicast is refused; IPv6 forms that embed an IPv4 address (mapped, NAT64,
 * 6to4) are judged by the IPv4 address inside.
 */

export type AddressVerdict =
  | { allowed: true }
  /** `localUse`: loopback or private, which WEBHOOKS_ALLOW_PRIVATE_URLS=1 permits for development. */
  | { allowed: false; reason: string; localUse: boolean };

// Parsing and prefix matching are ipaddr.js's; which ranges are refused, and why, is our policy below
// (explicit, rather than ipaddr's own range names, so that every refusal names its class).
interface Range<A extends ipaddr.IPv4 | ipaddr.IPv6> {
  cidr: [A, number];
  reason: string;
  localUse: boolean;
}

function v4(cidr: string, reason: string, localUse = false): Range<ipaddr.IPv4> {
  return { cidr: ipaddr.IPv4.parseCIDR(cidr), reason, localUse };
}

function v6(cidr: string, reason: string, localUse = false): Range<ipaddr.IPv6> {
  return { cidr: ipaddr.IPv6.parseCIDR(cidr), reason, localUse };
}

const IPV4_BLOCKED: Range<ipaddr.IPv4>[] = [
  v4("0.0.0.0/8", '"this network" (0.0.0.0/8)'),
  v4("10.0.0.0/8", "private", true),
  v4("100.64.0.0/10", "carrier-grade NAT (includes cloud metadata 100.100.100.200)"),
  v4("127.0.0.0/8", "loopback", true),
  v4("169.254.0.0/16", "link-local (includes cloud metadata 169.254.169.254)"),
  v4("172.16.0.0/12", "private", true),
  v4("192.0.0.0/24", "IETF protocol assignments"),
  v4("192.0.2.0/24", "documentation (TEST-NET-1)"),
  v4("192.88.99.0/24", "reserved (6to4 relay anycast)"),
  v4("192.168.0.0/16", "private", true),
  v4("198.18.0.0/15", "benchmarking"),
  v4("198.51.100.0/24", "documentation (TEST-NET-2)"),
  v4("203.0.113.0/24", "documentation (TEST-NET-3)"),
  v4("224.0.0.0/4", "multicast"),
  v4("255.255.255.255/32", "broadcast"),
  v4("240.0.0.0/4", "reserved"),
];

const IPV6_BLOCKED: Range<ipaddr.IPv6>[] = [
  v6("::/128", "unspecified"),
  v6("::1/128", "loopback", true),
  v6("::/96", "IPv4-compatible (deprecated)"),
  v6("64:ff9b:1::/48", "local-use NAT64"),
  v6("100::/64", "discard-only"),
  v6("2001:db8::/32", "documentation"),
  v6("2001::/23", "IETF protocol assignments (Teredo, benchmarking, ORCHID)"),
  v6("3fff::/20", "documentation"),
  v6("5f00::/16", "reserved (SRv6 SIDs)"),
  v6("fc00::/7", "unique-local (includes cloud metadata fd00:ec2::254)", true),
  v6("fe80::/10", "link-local"),
  v6("fec0::/10", "site-local (deprecated)"),
  v6("ff00::/8", "multicast"),
];

const MAPPED = v6("::ffff:0:0/96", "IPv4-mapped");
const NAT64 = v6("64:ff9b::/96", "NAT64");
const SIX_TO_FOUR = v6("2002::/16", "6to4");
const GLOBAL_UNICAST = v6("2000::/3", "global unicast");

/** Judges one IP address (v4 or v6, optionally with an IPv6 zone). */
export function classifyAddress(address: string): AddressVerdict {
  const ip = address.replace(/%.*$/, "");
  // net.isIP first: ipaddr.js also reads legacy IPv4 forms (`127.1`, hex, octal) that are not addresses here.
  const family = net.isIP(ip);
  if (family === 4) return classifyV4(ipaddr.IPv4.parse(ip));
  // ipaddr.js reads any dotted tail as IPv4-mapped (`::127.0.0.1` as `::ffff:127.0.0.1`): give it the
  // canonical hex form (the URL parser's RFC 5952 serialization), so the deprecated IPv4-compatible form stays itself.
  if (family === 6) return classifyV6(ipaddr.IPv6.parse(new URL(`http://[${ip}]/`).hostname.slice(1, -1)));
  return { allowed: false, reason: "not an IP address", localUse: false };
}

function classifyV4(ip: ipaddr.IPv4): AddressVerdict {
  const hit = IPV4_BLOCKED.find((r) => ip.match(r.cidr));
  return hit ? { allowed: false, reason: hit.reason, localUse: hit.localUse } : { allowed: true };
}

function classifyV6(ip: ipaddr.IPv6): AddressVerdict {
  const bytes = ip.toByteArray();
  const embedded = (range: Range<ipaddr.IPv6>, v4Bytes: number[]) => {
    const verdict = classifyV4(new ipaddr.IPv4(v4Bytes));
    return verdict.allowed ? verdict : { ...verdict, reason: `${range.reason} form of a ${verdict.reason} IPv4 address` };
  };
  if (ip.match(MAPPED.cidr)) return embedded(MAPPED, bytes.slice(12, 16));
  if (ip.match(NAT64.cidr)) return embedded(NAT64, bytes.slice(12, 16));
  if (ip.match(SIX_TO_FOUR.cidr)) return embedded(SIX_TO_FOUR, bytes.slice(2, 6));
  const hit = IPV6_BLOCKED.find((r) => ip.match(r.cidr));
  if (hit) return { allowed: false, reason: hit.reason, localUse: hit.localUse };
  if (!ip.match(GLOBAL_UNICAST.cidr)) return { allowed: false, reason: "reserved (outside global unicast 2000::/3)", localUse: false };
  return { allowed: true };
}
