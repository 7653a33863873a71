import { describe, expect, it } from "vitest";
import { addressKey, clientAddressFrom } from "./client-address";

const forwarded = (...values: string[]) => values.flatMap((v) => ["X-Forwarded-For", v]);

describe("the client address limits count by", () => {
  it("is the connection's peer when no proxy is trusted: X-Forwarded-For, which anyone can send, is ignored", () => {
    expect(clientAddressFrom("203.0.113.9", forwarded("198.51.100.1"), 0)).toBe("203.0.113.9");
    expect(clientAddressFrom("::ffff:127.0.0.5", [], 0)).toBe("127.0.0.5");
    expect(clientAddressFrom(undefined, [], 0)).toBe("unknown");
  });

  it("with N trusted proxies, is the entry the outermost one appended; entries the client wrote further left are not", () => {
    // The client wrote 1.1.1.1 itself; the proxy (the peer, 10.0.0.2) appended the address it saw.
    expect(clientAddressFrom("10.0.0.2", forwarded("1.1.1.1, 203.0.113.9"), 1)).toBe("203.0.113.9");
    // Two proxies: the outer one appended 203.0.113.9, the inner one 10.0.0.1; headers sent twice read as one list.
    expect(clientAddressFrom("10.0.0.2", forwarded("1.1.1.1", "203.0.113.9, 10.0.0.1"), 2)).toBe("203.0.113.9");
    // Fewer entries than proxies (a request that reached the server without passing them all): the leftmost.
    expect(clientAddressFrom("10.0.0.2", forwarded("203.0.113.9"), 3)).toBe("203.0.113.9");
    expect(clientAddressFrom("10.0.0.2", [], 1)).toBe("10.0.0.2");
    // Ports, brackets and garbage the proxy should not have written.
    expect(clientAddressFrom("10.0.0.2", forwarded("203.0.113.9:4711"), 1)).toBe("203.0.113.9");
    expect(clientAddressFrom("10.0.0.2", forwarded("[2001:db8::1]:443"), 1)).toBe("2001:db8::/64");
    expect(clientAddressFrom("10.0.0.2", forwarded("not an address"), 1)).toBe("10.0.0.2");
  });

  it("counts an IPv6 client by its /64 (one subscriber's share), an IPv4-mapped one as IPv4", () => {
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2:bbbb::9%eth0")).toBe("2001:db8:1:2::/64");
    expect(addressKey("::ffff:198.51.100.4")).toBe("198.51.100.4");
    expect(addressKey("example.com")).toBeUndefined();
  });
});
