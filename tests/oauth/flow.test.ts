import { auth, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, inject, it } from "vitest";
import { api, admin } from "../helpers/fixtures";
import { callServerAction, signIn, cookieHeader } from "../dashboard/session";
import { consentInBrowser, MemoryOAuthProvider, ownerWithPassword, postForm } from "./helpers";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

const mcpUrl = () => new URL(`${inject("baseUrl")}/api/mcp`);

async function connect(provider: MemoryOAuthProvider): Promise<Client> {
  const client = new Client({ name: "oauth-tests", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
  clients.push(client);
  return client;
}

/** The SDK client's whole first connection: 401 → discovery → registration → consent → code exchange. */
async function authorizeWithSdk(owner: { email: string; workspaceId: string }, scopes: string[], provider = new MemoryOAuthProvider()) {
  const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
  const first = new Client({ name: "oauth-tests", version: "1.0.0" });
  await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.authorizationUrl).toBeDefined();
  const { redirect } = await consentInBrowser(provider.authorizationUrl!, owner, { workspaceId: owner.workspaceId, scopes });
  expect(redirect.searchParams.get("state")).toBe(provider.stateValue);
  expect(redirect.searchParams.get("iss")).toBe(inject("baseUrl"));
  const code = redirect.searchParams.get("code");
  expect(code).toMatch(/^adlac_/);
  await transport.finishAuth(code!);
  return provider;
}

/** A raw MCP tools/list with a Bearer token. */
function rawMcp(token: string | null) {
  return fetch(mcpUrl(), {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
}

describe("OAuth 2.1 for MCP with the official SDK client", () => {
  it("discovers from the 401, registers, gets consent, exchanges the code, then lists and calls tools; refresh rotates; revoke ends it", async () => {
    const owner = await ownerWithPassword();
    const base = inject("baseUrl");

    const challenge = await rawMcp(null);
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get("www-authenticate")).toBe(`Bearer realm="adloom", resource_metadata="${base}/.well-known/oauth-protected-resource/api/mcp"`);

    const provider = await authorizeWithSdk(owner, ["upload", "edit"]);
    expect(provider.clientInfo?.client_id).toMatch(/^oac_/);
    expect(provider.savedTokens).toMatchObject({ token_type: "Bearer", scope: "upload edit", expires_in: 3600 });
    expect(provider.savedTokens!.access_token).toMatch(/^adlat_/);

    const client = await connect(provider);
    const { tools } = await client.listTools();
    expect(tools.some((t) => t.name === "create_folder")).toBe(true);
    const me = await client.callTool({ name: "get_account", arguments: {} });
    expect(me.structuredContent).toMatchObject({ account: { id: owner.userId } });
    const folder = await client.callTool({ name: "create_folder", arguments: { name: "By OAuth" } });
    expect(folder.isError).toBeFalsy();
    // Scopes hold: "delete" was not granted.
    const del = await client.callTool({ name: "delete_folder", arguments: { folderId: (folder.structuredContent as any).folder.id } });
    expect(del.isError).toBe(true);
    expect(JSON.parse((del.content as any)[0].text).error).toMatchObject({ code: "forbidden" });

    // The token is for MCP only: /api/v1 refuses it.
    const rest = await api(provider.savedTokens!.access_token)("/api/v1/me");
    expect(rest.status).toBe(401);
    expect(rest.body.error.message).toMatch(/only by the MCP endpoint/);

    // Refresh (the SDK's auth() with a refresh token): a new pair; the old refresh token is spent.
    const before = provider.savedTokens!;
    expect(await auth(provider, { serverUrl: mcpUrl() })).toBe("AUTHORIZED");
    expect(provider.savedTokens!.access_token).not.toBe(before.access_token);
    expect(provider.savedTokens!.refresh_token).not.toBe(before.refresh_token);
    expect((await rawMcp(provider.savedTokens!.access_token)).status).toBe(200);

    // Revocation (RFC 7009) of the access token ends the connection: 401 with invalid_token.
    const revoked = await postForm("/api/oauth/revoke", { token: provider.savedTokens!.access_token, client_id: provider.clientInfo!.client_id });
    expect(revoked.status).toBe(200);
    const after = await rawMcp(provider.savedTokens!.access_token);
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const refreshAfterRevoke = await postForm("/api/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: provider.savedTokens!.refresh_token!,
      client_id: provider.clientInfo!.client_id,
    });
    expect(refreshAfterRevoke.body.error).toBe("invalid_grant");
  });

  it("a spent refresh token presented again revokes the connection", async () => {
    const owner = await ownerWithPassword();
    const provider = await authorizeWithSdk(owner, []);
    const clientId = provider.clientInfo!.client_id;
    const first = provider.savedTokens!;
    const rotated = await postForm("/api/oauth/token", { grant_type: "refresh_token", refresh_token: first.refresh_token!, client_id: clientId });
    expect(rotated.status).toBe(200);
    expect(rotated.body.scope).toBe("");
    const reused = await postForm("/api/oauth/token", { grant_type: "refresh_token", refresh_token: first.refresh_token!, client_id: clientId });
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/already used/) });
    expect((await rawMcp(rotated.body.access_token)).status).toBe(401);
  });

  it("the API keys page lists the connected app, and its Revoke ends all its tokens", async () => {
    const owner = await ownerWithPassword();
    const provider = await authorizeWithSdk(owner, ["upload"]);
    const { jar } = await signIn(owner.email, "a long enough password");
    const page = await fetch(`${inject("baseUrl")}/dashboard/settings/api-keys`, { headers: { Cookie: cookieHeader(jar) } });
    const html = await page.text();
    expect(html).toContain("Connected apps");
    expect(html).toContain("Test assistant");
    const grantId = html.match(/oag_[a-z0-9]{20}/)?.[0];
    expect(grantId).toBeDefined();
    const action = await callServerAction(
      jar,
      "/dashboard/settings/api-keys",
      { file: "app/dashboard/settings/api-keys/actions.ts", name: "revokeConnectedAppAction" },
      [grantId],
    );
    expect(action.status).toBe(200);
    expect((await rawMcp(provider.savedTokens!.access_token)).status).toBe(401);
    const refresh = await postForm("/api/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: provider.savedTokens!.refresh_token!,
      client_id: provider.clientInfo!.client_id,
    });
    expect(refresh.body.error).toBe("invalid_grant");
    const again = await (await fetch(`${inject("baseUrl")}/dashboard/settings/api-keys`, { headers: { Cookie: cookieHeader(jar) } })).text();
    expect(again).not.toContain(grantId!);
  });
});

describe("OAuth metadata and errors", () => {
  it("serves protected-resource and authorization-server metadata", async () => {
    const base = inject("baseUrl");
    for (const path of ["/.well-known/oauth-protected-resource/api/mcp", "/.well-known/oauth-protected-resource"]) {
      const prm = await api(null)(path);
      expect(prm.status).toBe(200);
      expect(prm.body).toMatchObject({ resource: `${base}/api/mcp`, authorization_servers: [base], bearer_methods_supported: ["header"] });
      expect(prm.headers.get("access-control-allow-origin")).toBe("*");
    }
    const as = await api(null)("/.well-known/oauth-authorization-server");
    expect(as.body).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/api/oauth/authorize`,
      token_endpoint: `${base}/api/oauth/token`,
      registration_endpoint: `${base}/api/oauth/register`,
      revocation_endpoint: `${base}/api/oauth/revoke`,
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      authorization_response_iss_parameter_supported: true,
    });
  });

  it("a wrong adl_ key is 401 with the invalid_token challenge, and the body says the key is invalid", async () => {
    const res = await rawMcp("adl_not_a_real_key");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect((await res.json()).error.message).toBe("Invalid API key");
  });

  it("registration refuses redirect URIs that are not https or loopback http", async () => {
    const register = (body: unknown) => api(null)("/api/oauth/register", { method: "POST", json: body });
    for (const uri of ["http://evil.example/cb", "javascript:alert(1)", "https://ok.example/cb#frag", "not a url"]) {
      const res = await register({ redirect_uris: [uri], client_name: "x" });
      expect(res.status, uri).toBe(400);
      expect(res.body.error).toBe("invalid_redirect_uri");
      expect(res.body.error_description).toBeTruthy();
    }
    expect((await register({ redirect_uris: [] })).body.error).toBe("invalid_redirect_uri");
    expect((await register({ redirect_uris: ["https://ok.example/cb"], grant_types: ["client_credentials"] })).body.error).toBe("invalid_client_metadata");
    const ok = await register({ redirect_uris: ["https://ok.example/cb", "http://localhost:3334/cb"], token_endpoint_auth_method: "client_secret_post" });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ client_name: "MCP client", token_endpoint_auth_method: "none" });
    expect(ok.body.client_secret).toBeUndefined();
  });

  it("the authorization endpoint: unknown client and redirect mismatch are shown (never redirected), other errors go back with state", async () => {
    const base = inject("baseUrl");
    const { body: client } = await api(null)("/api/oauth/register", { method: "POST", json: { redirect_uris: ["http://127.0.0.1:9/cb"] } });
    const authorize = (params: Record<string, string>) =>
      fetch(
        `${base}/api/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: client.client_id, redirect_uri: "http://127.0.0.1:9/cb", code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256", state: "xyz", ...params })}`,
        { redirect: "manual" },
      );
    const unknown = await authorize({ client_id: "oac_nope" });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: "invalid_client" });
    const mismatch = await authorize({ redirect_uri: "http://127.0.0.1:9/other" });
    expect(mismatch.status).toBe(400);
    expect(mismatch.headers.get("location")).toBeNull();
    expect((await mismatch.json()).error).toBe("invalid_request");
    const plain = await authorize({ code_challenge_method: "plain" });
    expect(plain.status).toBe(302);
    const back = new URL(plain.headers.get("location")!);
    expect(back.origin + back.pathname).toBe("http://127.0.0.1:9/cb");
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("state")).toBe("xyz");
    const otherResource = await authorize({ resource: "https://elsewhere.example/mcp" });
    expect(new URL(otherResource.headers.get("location")!).searchParams.get("error")).toBe("invalid_target");
    const badScope = await authorize({ scope: "upload superpowers" });
    expect(new URL(badScope.headers.get("location")!).searchParams.get("error")).toBe("invalid_scope");
    const good = await authorize({});
    expect(good.status).toBe(302);
    expect(good.headers.get("location")).toMatch(/^\/dashboard\/oauth\/consent\?/);
  });

  it("token endpoint: bad verifier, reused code (revokes what it issued), unknown client; deny", async () => {
    const owner = await ownerWithPassword();
    const provider = new MemoryOAuthProvider();
    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
    await expect(new Client({ name: "t", version: "1" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const { redirect } = await consentInBrowser(provider.authorizationUrl!, owner, { workspaceId: owner.workspaceId, scopes: ["upload"] });
    const code = redirect.searchParams.get("code")!;
    const clientId = provider.clientInfo!.client_id;
    const exchange = (fields: Record<string, string>) =>
      postForm("/api/oauth/token", {
        grant_type: "authorization_code",
        code,
        code_verifier: provider.verifier,
        redirect_uri: provider.redirect,
        client_id: clientId,
        ...fields,
      });

    const wrongVerifier = await exchange({ code_verifier: "x".repeat(43) });
    expect(wrongVerifier.status).toBe(400);
    expect(wrongVerifier.body).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/code_verifier/) });
    expect((await exchange({ client_id: "oac_unknown" })).body.error).toBe("invalid_client");
    expect((await exchange({ redirect_uri: "http://127.0.0.1:8976/other" })).body.error).toBe("invalid_grant");
    expect((await postForm("/api/oauth/token", { grant_type: "password" })).body.error).toBe("unsupported_grant_type");

    const issued = await exchange({});
    expect(issued.status).toBe(200);
    expect((await rawMcp(issued.body.access_token)).status).toBe(200);
    const reused = await exchange({});
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/already used/) });
    expect((await rawMcp(issued.body.access_token)).status).toBe(401);

    // Deny goes back as access_denied with state.
    const denied = await consentInBrowser(await freshAuthorizationUrl(), owner, { workspaceId: owner.workspaceId, scopes: [], decision: "deny" });
    expect(denied.redirect.searchParams.get("error")).toBe("access_denied");
    expect(denied.redirect.searchParams.get("state")).toBeTruthy();
  });

  it("a viewer cannot consent to scopes beyond their role", async () => {
    const owner = await ownerWithPassword();
    const viewerEmail = `viewer-${Date.now()}@example.com`;
    await admin(["member", "add", "--workspace", owner.workspaceId, "--email", viewerEmail, "--role", "viewer"]);
    await admin(["user", "password", "--email", viewerEmail, "--password", "a long enough password"]);
    const url = await freshAuthorizationUrl();
    await expect(consentInBrowser(url, { email: viewerEmail }, { workspaceId: owner.workspaceId, scopes: ["delete"] })).rejects.toThrow(/invalid_scope/);
    const ok = await consentInBrowser(url, { email: viewerEmail }, { workspaceId: owner.workspaceId, scopes: ["ads_view"] });
    expect(ok.redirect.searchParams.get("code")).toMatch(/^adlac_/);
  });
});

/** A new SDK client's authorization URL (registration done), ready for consent. */
async function freshAuthorizationUrl(): Promise<URL> {
  const provider = new MemoryOAuthProvider();
  expect(await auth(provider, { serverUrl: mcpUrl() })).toBe("REDIRECT");
  return provider.authorizationUrl!;
}
