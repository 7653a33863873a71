import { describe, expect, inject, it } from "vitest";
import { createTenant } from "../helpers/fixtures";
import { jsonBody, rawRequest, requestHead } from "../helpers/raw-http";
import { dotSegmentOf } from "@/lib/server/dot-segments";

/**
 * fetch (like every WHATWG URL parser) resolves `%2e%2e` itself, so these requests are sent raw:
 * a path id that is a dot segment must be refused, never redirected to the parent path.
 */
describe("dot segments in request paths", () => {
  it("knows a dot segment in any spelling, and only whole segments", () => {
    for (const path of ["/api/v1/uploads/%2e%2e", "/api/v1/uploads/%2E%2e/x", "/a/.%2e", "/a/%2e.", "/a/..", "/a/%2e", "/a/./b", "/a/b\\..", "/a/%2e%2e?x=1"]) {
      expect(dotSegmentOf(path), path).not.toBeNull();
    }
    for (const path of ["/api/v1/uploads/upl_1", "/a/..b", "/a/b..", "/a/%2e%2e%2e", "/a/...", "/a?next=/..", "/a/%252e%252e"]) {
      expect(dotSegmentOf(path), path).toBeNull();
    }
  });

  it("answers 400 on the four routes with an id, not a 308 to the parent path", async () => {
    const t = await createTenant();
    const base = inject("baseUrl");
    const host = new URL(base).host;
    const auth: [string, string][] = [["Authorization", `Bearer ${t.key}`]];
    const cases: [string, string][] = [
      ["GET", "/api/v1/uploads/%2e%2e"],
      ["GET", "/api/media/%2e%2e"],
      ["POST", "/api/v1/webhooks/deliveries/%2e%2e"],
      ["POST", "/api/v1/tools/%2e%2e"],
      ["GET", "/api/v1/uploads/.%2E"],
      ["GET", "/api/v1/uploads/%2e"],
    ];
    for (const [method, path] of cases) {
      const res = await rawRequest(base, [requestHead(method, path, host, [...auth, ["Content-Length", "0"]])]);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.headers.location, path).toBeUndefined();
      expect(jsonBody(res).error).toMatchObject({ code: "invalid_request", message: expect.stringContaining("segment") });
      expect(res.headers["x-request-id"]).toMatch(/^req_/);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
    }
    // An id that merely contains dots is an id like any other: not found.
    const dotted = await rawRequest(base, [requestHead("GET", "/api/v1/uploads/upl..x", host, auth)]);
    expect(dotted.status).toBe(404);
  });
});
