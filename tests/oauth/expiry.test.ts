import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { consentInBrowser, MemoryOAuthProvider, ownerWithPassword, postForm } from "./helpers";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("OAuth lifetimes (own server with 5 s codes and 3 s access tokens)", () => {
  let server: TestServer;
  beforeAll(async () => {
    // Codes live 5 s, not less: the second test's consent and code exchange (metadata discovery, then the token
    // request) must land inside a code's lifetime on a busy machine.
    server = await startServer({ env: { OAUTH_CODE_TTL_SECONDS: "5", OAUTH_ACCESS_TOKEN_TTL_SECONDS: "3" } });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  /** Registration and consent with the SDK client against this server; returns the code and the provider. */
  async function codeFor(provider: MemoryOAuthProvider) {
    const owner = await ownerWithPassword(server.dataDir);
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { authProvider: provider });
    await expect(new Client({ name: "t", version: "1" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const { redirect } = await consentInBrowser(provider.authorizationUrl!, owner, { workspaceId: owner.workspaceId, scopes: ["upload"] }, server.url);
    return { code: redirect.searchParams.get("code")!, transport };
  }

  it("an expired code is refused with invalid_grant", async () => {
    const provider = new MemoryOAuthProvider();
    const { code } = await codeFor(provider);
    await sleep(5500);
    const res = await postForm(
      "/api/oauth/token",
      { grant_type: "authorization_code", code, code_verifier: provider.verifier, redirect_uri: provider.redirect, client_id: provider.clientInfo!.client_id },
      server.url,
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/expired/) });
  });

  it("an expired access token is 401 invalid_token, and the SDK client refreshes by itself and carries on", async () => {
    const provider = new MemoryOAuthProvider();
    const { code, transport } = await codeFor(provider);
    await transport.finishAuth(code);
    const client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { authProvider: provider }));
    try {
      const first = provider.savedTokens!.access_token;
      await sleep(3500);
      const raw = await fetch(`${server.url}/api/mcp`, {
        method: "POST",
        headers: { Authorization: `Bearer ${first}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      });
      expect(raw.status).toBe(401);
      expect(raw.headers.get("www-authenticate")).toContain('error="invalid_token"');
      expect((await raw.json()).error.message).toMatch(/expired/);
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      expect(provider.savedTokens!.access_token).not.toBe(first);
    } finally {
      await client.close();
    }
  });
});
