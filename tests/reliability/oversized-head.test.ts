import { beforeAll, describe, expect, inject, it } from "vitest";
import { HTTP_EDGE_DEFAULTS } from "@/lib/http-edge-defaults.mjs";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { jsonBody, rawRequest, requestHead } from "../helpers/raw-http";

/**
 * A request head over HTTP_MAX_HEADER_BYTES is answered 431 in the error envelope, and the client reads
 * that answer: the server drains what the client still sends before it closes, instead of closing with
 * unread bytes (which made the kernel reset the connection, so most clients saw a reset, not the 431).
 */
const LIMIT = HTTP_EDGE_DEFAULTS.HTTP_MAX_HEADER_BYTES;
const TRIES = 50;

describe("an oversized request head", () => {
  let tenant: Tenant;
  const base = () => inject("baseUrl");
  const host = () => new URL(base()).host;

  beforeAll(async () => {
    tenant = await createTenant();
  });

  /** A head of exactly `bytes` bytes: a header pads it. */
  function headOf(bytes: number, method = "DELETE", path = "/api/v1/creatives"): string {
    const head = (padding: string) =>
      requestHead(method, path, host(), [
        ["Authorization", `Bearer ${tenant.key}`],
        ["X-Padding", padding],
      ]);
    return head("a".repeat(bytes - head("").length));
  }

  for (const bytes of [17_000, 70_000, 1024 * 1024]) {
    it(`of ${bytes} bytes is answered 431 every time in ${TRIES} tries`, async () => {
      const head = headOf(bytes);
      expect(head.length).toBe(bytes);
      const statuses: number[] = [];
      for (let i = 0; i < TRIES; i++) {
        const res = await rawRequest(base(), [head], { timeoutMs: 10_000 });
        statuses.push(res.status);
        if (res.status === 431 && i === 0) {
          expect(res.headers.connection).toBe("close");
          expect(jsonBody(res)).toEqual({ error: { code: "invalid_request", message: expect.stringContaining(`${LIMIT} bytes`) } });
        }
      }
      expect(statuses.filter((s) => s !== 431)).toEqual([]);
    });
  }

  it("is answered 431 to fetch too, and the same client's next request is served", async () => {
    const url = `${base()}/api/v1/creatives?q=${"é".repeat(600)}`;
    for (let i = 0; i < 20; i++) {
      const res = await fetch(url, {
        method: "DELETE",
        headers: { Authorization: `Bearer ${tenant.key}`, "Idempotency-Key": "k".repeat(LIMIT), "Content-Type": "application/json" },
        body: JSON.stringify({ ids: ["x"] }),
      });
      expect(res.status).toBe(431);
      expect((await res.json()).error.code).toBe("invalid_request");
      const me = await fetch(`${base()}/api/v1/me`, { headers: { Authorization: `Bearer ${tenant.key}` } });
      expect(me.status).toBe(200);
      await me.arrayBuffer();
    }
  });

  it("of exactly the limit is served as usual", async () => {
    const head = headOf(LIMIT, "GET", "/api/v1/me");
    expect(head.length).toBe(LIMIT);
    const res = await rawRequest(base(), [head], { timeoutMs: 10_000 });
    expect(res.status).toBe(200);
    expect(jsonBody(res).account.id).toBe(tenant.ownerUserId);
  });
});
