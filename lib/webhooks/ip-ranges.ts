import net from "node:net";

/**
 * Which IP addresses a webhook may be delivered to. Everything that is not globally
 * routable unicast is refused; IPv6 forms that embed an IPv4 address (mapped, NAT64,
 * 6to4) are judged by the IPv4 address inside.
 */

export type AddressVerdict =
  | { allowed: true }
  /** `localUse`: loopback or private, which WEBHOOKS_ALLOW_PRIVATE_URLS=1 permits for development. */
  | { allowed: false; reason: string; localUse: boolean };

interface Range {
  base: bigint;
  bits: number;
  reason: string;
  localUse?: boolean;
}

function v4(cidr: string, reason: string, localUse = false): Range {
  const [addr, bits] = cidr.split("/");
  return { base: ipv4ToBigInt(addr!), bits: Number(bits), reason, localUse };
}

function v6(cidr: string, reason: string, localUse = false): Range {
  const [addr, bits] = cidr.split("/");
  return { base: ipv6ToBigInt(addr!), bits: Number(bits), reason, localUse };
}

const IPV4_BLOCKED: Range[] = [
  v4("0.0.0.0/8", "\"this network\" (0.0.0.0/8)"),
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

const IPV6_BLOCKED: Range[] = [
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

function inRange(value: bigint, range: Range, width: 32 | 128): boolean {
  const shift = BigInt(width - range.bits);
  return value >> shift === range.base >> shift;
}

/** Judges one IP address (v4 or v6, optionally with an IPv6 zone). */
export function classifyAddress(address: string): AddressVerdict {
  const ip = address.replace(/%.*$/, "");
  const family = net.isIP(ip);
  if (family === 4) return classifyV4(ipv4ToBigInt(ip));
  if (family === 6) return classifyV6(ipv6ToBigInt(ip));
  return { allowed: false, reason: "not an IP address", localUse: false };
}

function classifyV4(value: bigint): AddressVerdict {
  const hit = IPV4_BLOCKED.find((r) => inRange(value, r, 32));
  return hit ? { allowed: false, reason: hit.reason, localUse: hit.localUse ?? false } : { allowed: true };
}

function classifyV6(value: bigint): AddressVerdict {
  const embedded = (range: Range, v4Bits: bigint) => {
    const verdict = classifyV4(v4Bits & 0xffffffffn);
    return verdict.allowed ? verdict : { ...verdict, reason: `${range.reason} form of a ${verdict.reason} IPv4 address` };
  };
  if (inRange(value, MAPPED, 128)) return embedded(MAPPED, value);
  if (inRange(value, NAT64, 128)) return embedded(NAT64, value);
  if (inRange(value, SIX_TO_FOUR, 128)) return embedded(SIX_TO_FOUR, value >> 80n);
  const hit = IPV6_BLOCKED.find((r) => inRange(value, r, 128));
  if (hit) return { allowed: false, reason: hit.reason, localUse: hit.localUse ?? false };
  if (!inRange(value, GLOBAL_UNICAST, 128)) return { allowed: false, reason: "reserved (outside global unicast 2000::/3)", localUse: false };
  return { allowed: true };
}

function ipv4ToBigInt(ip: string): bigint {
  return ip.split(".").reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function ipv6ToBigInt(ip: string): bigint {
  let text = ip.toLowerCase();
  // A trailing dotted IPv4 (::ffff:1.2.3.4) becomes two hex groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = ipv4ToBigInt(dotted[1]!);
    text = text.slice(0, dotted.index) + `${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(missing).fill("0"), ...tailGroups];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g || "0", 16)), 0n);
}
