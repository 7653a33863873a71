import { describe, expect, inject, it } from "vitest";
import { createTenant } from "../helpers/fixtures";

const ORIGIN = "https://app.example.com";
const url = (path: string) => `${inject("baseUrl")}${path}`;

async function preflight(path: string, method: string, headers = "authorization, content-type, idempotency-key") {
  return fetch(url(path), {
    method: "OPTIONS",
    headers: { Origin: ORIGIN, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers },
  });
}

describe("CORS on /api/v1 and /api/media: Bearer keys from any origin, no credentials", () => {
  it("answers preflights for the API's methods and request headers", async () => {
    for (const [path, method] of [
      ["/api/v1/me", "GET"],
      ["/api/v1/uploads", "POST"],
      ["/api/v1/webhooks", "PUT"],
      ["/api/v1/creatives", "DELETE"],
      ["/api/v1/tools/list_creatives", "POST"],
      ["/api/media/crv_nope", "GET"],
    ] as const) {
      const res = await preflight(path, method);
      expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(200);
      expect(res.status, `${method} ${path}`).toBeLessThan(300);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-methods")).toContain(method);
      const allowed = res.headers.get("access-control-allow-headers")!.toLowerCase();
      for (const h of ["authorization", "content-type", "idempotency-key", "if-none-match", "range"]) expect(allowed).toContain(h);
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    }
  });

  it("lets a page on another origin read answers, errors and the headers a client needs", async () => {
    const t = await createTenant();
    const me = await fetch(url("/api/v1/me"), { headers: { Origin: ORIGIN, Authorization: `Bearer ${t.key}` } });
    expect(me.status).toBe(200);
    expect(me.headers.get("access-control-allow-origin")).toBe("*");
    const exposed = me.headers.get("access-control-expose-headers")!.toLowerCase();
    for (const h of ["x-request-id", "etag", "retry-after", "x-ratelimit-limit", "x-ratelimit-remaining", "idempotent-replayed", "content-disposition"]) {
      expect(exposed).toContain(h);
    }
    const denied = await fetch(url("/api/v1/me"), { headers: { Origin: ORIGIN, Authorization: "Bearer adl_wrong" } });
    expect(denied.status).toBe(401);
    expect(denied.headers.get("access-control-allow-origin")).toBe("*");
    const media = await fetch(url("/api/media/crv_nope"), { headers: { Origin: ORIGIN, Authorization: `Bearer ${t.key}` } });
    expect(media.status).toBe(404);
    expect(media.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("leaves the dashboard and its sign-in routes same-origin only", async () => {
    for (const path of ["/api/auth/session", "/sign-in"]) {
      const res = await fetch(url(path), { headers: { Origin: ORIGIN }, redirect: "manual" });
      expect(res.headers.get("access-control-allow-origin"), path).toBeNull();
    }
  });
});
