import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";

// Dynamic client registration needs no credentials, so it is capped service-wide and unused clients are purged.
describe("OAuth client registration limits (own server, 2 registrations per minute)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { OAUTH_REGISTRATIONS_PER_MINUTE: "2" } });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  const register = async (body: unknown) => {
    const res = await fetch(`${server.url}/api/oauth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() };
  };

  it("accepts the limit's worth of valid registrations in a minute, then answers 429 with Retry-After; invalid ones are refused as before and not counted", async () => {
    // The limit counts per clock minute: start early in one, so all the calls fall in the same window.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 200));

    expect((await register({ redirect_uris: ["http://evil.example/cb"] })).status).toBe(400);
    const first = await register({ redirect_uris: ["https://one.example/cb"] });
    const second = await register({ redirect_uris: ["https://two.example/cb"] });
    expect([first.status, second.status]).toEqual([201, 201]);

    const third = await register({ redirect_uris: ["https://three.example/cb"] });
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ error: "temporarily_unavailable", error_description: expect.stringMatching(/retry in \d+ s/) });
    expect(Number(third.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(third.retryAfter)).toBeLessThanOrEqual(60);
    // A malformed request is still told what is wrong with it.
    expect((await register({ redirect_uris: [] })).body.error).toBe("invalid_redirect_uri");
    // The registered clients work: the authorization endpoint knows the first one.
    const authorize = await fetch(
      `${server.url}/api/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: first.body.client_id, redirect_uri: "https://one.example/cb", code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256", state: "s" })}`,
      { redirect: "manual" },
    );
    expect(authorize.status).not.toBe(400);
  });
});
