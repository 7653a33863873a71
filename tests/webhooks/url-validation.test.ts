import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTenant } from "../helpers/fixtures";
import type { TestServer } from "../helpers/server";
import { REFUSED_ADDRESSES } from "./helpers/addresses";
import { freshStorage, startOwnServer } from "./helpers/own-server";

// A server in production posture: WEBHOOKS_ALLOW_PRIVATE_URLS unset.
let server: TestServer;
let call: ReturnType<typeof api>;
beforeAll(async () => {
  server = await startOwnServer(await freshStorage("urls"), { WEBHOOKS_ALLOW_PRIVATE_URLS: "0" });
  const tenant = await createTenant({ dataDir: server.dataDir });
  call = api(tenant.key, server.url);
});
afterAll(() => server?.stop());

const literal = (address: string) => (address.includes(":") ? `[${address.replace(/%.*/, "%25eth0")}]` : address);

describe("webhook URL validation when saved (production posture)", () => {
  it.each(REFUSED_ADDRESSES.filter(([a]) => !a.includes("%")))("refuses https://%s (%s)", async (address) => {
    const res = await call("/api/v1/webhooks", { method: "PUT", json: { url: `https://${literal(address)}/hook` } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.message).toMatch(/not a public address/);
  });

  it("refuses host names that resolve to loopback, plain http, and hosts that do not resolve", async () => {
    for (const [url, message] of [
      ["https://localhost/hook", /resolves to .* not a public address/],
      ["http://1.1.1.1/hook", /https/],
      ["https://no-such-host.invalid/hook", /could not be resolved|does not resolve/],
    ] as const) {
      const res = await call("/api/v1/webhooks", { method: "PUT", json: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect((await call("/api/v1/webhooks")).body.webhook).toBeNull();
  });

  it("accepts a public HTTPS address", async () => {
    const res = await call("/api/v1/webhooks", { method: "PUT", json: { url: "https://1.1.1.1/hook" } });
    expect(res.status).toBe(201);
    expect(res.body.webhook.url).toBe("https://1.1.1.1/hook");
  });
});
