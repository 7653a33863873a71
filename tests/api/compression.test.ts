import http from "node:http";
import { inject } from "vitest";
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../helpers/fixtures";

/** Status and headers of a GET as a gzip-accepting client sees them (no transparent decoding). */
function rawGet(path: string, key: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL(path, inject("baseUrl")), { headers: { Authorization: `Bearer ${key}`, "Accept-Encoding": "gzip" } }, (res) => {
      let bytes = 0;
      res.on("data", (c: Buffer) => (bytes += c.length));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, bytes }));
    });
    req.on("error", reject);
  });
}

describe("response compression", () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant();
  });

  it("sends small JSON answers as they are (gzip would only cost CPU)", async () => {
    const res = await rawGet("/api/v1/me", tenant.key);
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.headers["cache-control"]).toBe("no-store, no-transform");
    expect(res.bytes).toBeLessThan(1024);
  });

  it("still gzips JSON answers of 1 KB and more", async () => {
    const res = await rawGet("/api/v1/tools", tenant.key);
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(res.headers["cache-control"]).not.toMatch(/no-transform/);
  });
});
