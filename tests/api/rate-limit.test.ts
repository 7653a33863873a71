import { afterAll, beforeAll, expect, it } from "vitest";
import { api, createTenant } from "../helpers/fixtures";
import { startServer, type TestServer } from "../helpers/server";
import { freshDatabaseUrl } from "../helpers/fresh-database";

let server: TestServer;

beforeAll(async () => {
  const databaseUrl = await freshDatabaseUrl("ratelimit");
  server = await startServer({ env: { RATE_LIMIT_PER_MINUTE: "5" }, databaseUrl });
});
afterAll(() => server?.stop());

it("answers 429 rate_limited with Retry-After past RATE_LIMIT_PER_MINUTE, per key", async () => {
  const a = await createTenant({ dataDir: server.dataDir });
  const b = await createTenant({ dataDir: server.dataDir });
  const callA = api(a.key, server.url);
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push((await callA("/api/v1/me")).status);
  // The window may roll over mid-loop; all five must pass either way.
  expect(statuses).toEqual([200, 200, 200, 200, 200]);

  let limited = await callA("/api/v1/me");
  if (limited.status === 200) limited = await callA("/api/v1/me"); // a new minute began: use it up again
  for (let i = 0; limited.status === 200 && i < 5; i++) limited = await callA("/api/v1/me");
  expect(limited.status).toBe(429);
  expect(limited.body.error.code).toBe("rate_limited");
  const retryAfter = Number(limited.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");

  // Another key has its own budget.
  expect((await api(b.key, server.url)("/api/v1/me")).status).toBe(200);
});
