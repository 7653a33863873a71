import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, inject, it } from "vitest";
import { admin, api, createMemberKey, createTenant } from "../helpers/fixtures";
import { readyCreative } from "../tools/helpers";

const clients: Client[] = [];

/** The official MCP client over Streamable HTTP with the Bearer key. */
async function connect(key: string): Promise<Client> {
  const client = new Client({ name: "adloom-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${inject("baseUrl")}/api/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function toolError(answer: unknown): { code: string; message: string } {
  const result = answer as { isError?: boolean; content: { type: string; text: string }[] };
  expect(result.isError).toBe(true);
  const [first] = result.content;
  expect(first!.type).toBe("text");
  return JSON.parse(first!.text).error;
}

describe("MCP at /api/mcp", () => {
  it("lists the same catalog as REST, with annotations and output schemas", async () => {
    const t = await createTenant();
    const client = await connect(t.key);
    expect(client.getServerVersion()?.name).toBe("adloom");
    const { tools } = await client.listTools();
    const rest = await api(t.key)("/api/v1/tools");
    expect(tools.map((x) => x.name)).toEqual(rest.body.tools.map((x: any) => x.name));
    const del = tools.find((x) => x.name === "delete_creatives")!;
    expect(del.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, title: "Delete creatives" });
    expect(del.inputSchema).toEqual(rest.body.tools.find((x: any) => x.name === "delete_creatives").inputSchema);
    const list = tools.find((x) => x.name === "list_creatives")!;
    expect(list.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(list.outputSchema).toMatchObject({ type: "object" });
  });

  it("calls tools: structured content plus the same JSON as text, validated against outputSchema by the client", async () => {
    const t = await createTenant();
    const client = await connect(t.key);
    await client.listTools(); // the client then validates structuredContent against each outputSchema
    const account = await client.callTool({ name: "get_account", arguments: {} });
    expect(account.isError).toBeFalsy();
    expect(account.structuredContent).toMatchObject({ account: { id: t.ownerUserId, plan: "pro" } });
    expect(JSON.parse((account.content as any)[0].text)).toEqual(account.structuredContent);

    const created = await client.callTool({ name: "create_folder", arguments: { name: "Via MCP" } });
    const folderId = (created.structuredContent as any).folder.id;
    const { creativeId } = await readyCreative(t.key);
    const copy = await client.callTool({ name: "create_copy_variant", arguments: { creativeId, headline: "MCP headline" } });
    expect(copy.structuredContent).toMatchObject({ created: true });
    const creatives = await client.callTool({ name: "list_creatives", arguments: { limit: 10 } });
    expect((creatives.structuredContent as any).creatives).toEqual([expect.objectContaining({ id: creativeId, copyCount: 1 })]);

    // What MCP did is what REST sees.
    const rest = await api(t.key)("/api/v1/tools/list_folders", { method: "POST", json: {} });
    expect(rest.body.result.folders.map((f: any) => f.id)).toEqual([folderId]);
  });

  it("returns tool failures as error results with the tool error codes", async () => {
    const t = await createTenant();
    const client = await connect(t.key);
    expect(toolError(await client.callTool({ name: "list_uploads", arguments: { limit: 500 } }))).toMatchObject({
      code: "invalid_input",
      message: expect.stringMatching(/^Invalid input: limit: /),
    });
    expect(toolError(await client.callTool({ name: "no_such_tool", arguments: {} })).code).toBe("not_found");
    expect(toolError(await client.callTool({ name: "get_upload", arguments: { id: "upl_missing" } })).code).toBe("not_found");
    const { folder } = (await client.callTool({ name: "create_folder", arguments: { name: "Full" } })).structuredContent as any;
    await client.callTool({ name: "create_folder", arguments: { name: "Kid", parentId: folder.id } });
    // The folder grants a member their access: deleting it would widen that member's view.
    await createMemberKey(t, { role: "editor", folders: [folder.id] });
    expect(toolError(await client.callTool({ name: "delete_folder", arguments: { id: folder.id } })).code).toBe("conflict");
    expect(toolError(await client.callTool({ name: "set_webhook_url", arguments: { url: "not a url" } }))).toMatchObject({ code: "invalid_input" });
  });

  it("checks permissions and scopes inside each call (annotations are only hints)", async () => {
    const t = await createTenant();
    const viewer = await connect((await createMemberKey(t, { role: "viewer" })).key);
    expect((await viewer.callTool({ name: "list_folders", arguments: {} })).isError).toBeFalsy();
    expect(toolError(await viewer.callTool({ name: "create_folder", arguments: { name: "x" } })).code).toBe("forbidden");
    const scoped = await connect((await createMemberKey(t, { role: "owner", scopes: ["edit"] })).key);
    expect(toolError(await scoped.callTool({ name: "get_webhook", arguments: {} }))).toMatchObject({
      code: "forbidden",
      message: expect.stringContaining("unscoped"),
    });
    expect(toolError(await scoped.callTool({ name: "delete_creatives", arguments: { ids: ["crt_x"] } })).message).toContain('"delete"');
  });

  it("a tool call that needs two-factor answers two_factor_required over MCP and REST tool calls, as REST does", async () => {
    const t = await createTenant();
    await admin(["workspace", "two-factor", "--workspace", t.workspaceId, "--permissions", "account.read"]);
    const client = await connect(t.key);
    expect(toolError(await client.callTool({ name: "get_account", arguments: {} }))).toMatchObject({
      code: "two_factor_required",
      message: expect.stringContaining("account.read"),
    });
    const rest = await api(t.key)("/api/v1/tools/get_account", { method: "POST", json: {} });
    expect(rest.status).toBe(403);
    expect(rest.body.error.code).toBe("two_factor_required");
    expect((await api(t.key)("/api/v1/me")).body.error.code).toBe("two_factor_required");
  });

  it("replays an idempotencyKey across MCP and REST", async () => {
    const t = await createTenant();
    const client = await connect(t.key);
    const first = await client.callTool({ name: "create_folder", arguments: { name: "Once", idempotencyKey: "mcp-1" } });
    const second = await client.callTool({ name: "create_folder", arguments: { name: "Once", idempotencyKey: "mcp-1" } });
    expect(second.structuredContent).toEqual(first.structuredContent);
    const rest = await api(t.key)("/api/v1/tools/create_folder", { method: "POST", json: { name: "Once", idempotencyKey: "mcp-1" } });
    expect(rest.body.result).toEqual(first.structuredContent);
    expect(toolError(await client.callTool({ name: "rename_folder", arguments: { id: "fld_x", name: "y", idempotencyKey: "mcp-1" } })).code).toBe("conflict");
  });

  it("answers subscription_required as JSON-RPC error -32002", async () => {
    const lapsed = await createTenant({ plan: "none" });
    const client = await connect(lapsed.key);
    const listing = await client.listTools().catch((e) => e);
    expect(listing).toBeInstanceOf(McpError);
    expect(listing.code).toBe(-32002);
    // The code is prefixed once ("MCP error -32002: ..."), not twice.
    expect(listing.message).toMatch(/^MCP error -32002: (?!MCP error)/);
    const call = await client.callTool({ name: "get_account", arguments: {} }).catch((e) => e);
    expect(call.code).toBe(-32002);
  });

  it("answers a wrong or missing credential 401 with the WWW-Authenticate challenge, and is stateless (POST only)", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } },
    };
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const bad = await fetch(`${inject("baseUrl")}/api/mcp`, {
      method: "POST",
      headers: { ...headers, Authorization: "Bearer adl_wrong" },
      body: JSON.stringify(init),
    });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toMatch(
      /^Bearer realm="adloom", resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/api\/mcp", error="invalid_token"/,
    );
    expect((await bad.json()).error).toMatchObject({ code: "unauthorized", message: "Invalid API key" });
    const none = await fetch(`${inject("baseUrl")}/api/mcp`, { method: "POST", headers, body: JSON.stringify(init) });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer realm="adloom", resource_metadata="[^"]+"$/);

    const t = await createTenant();
    const ok = await fetch(`${inject("baseUrl")}/api/mcp`, {
      method: "POST",
      headers: { ...headers, Authorization: `Bearer ${t.key}` },
      body: JSON.stringify(init),
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("mcp-session-id")).toBeNull();
    expect((await ok.json()).result.serverInfo.name).toBe("adloom");
    const get = await fetch(`${inject("baseUrl")}/api/mcp`, { headers: { Authorization: `Bearer ${t.key}`, Accept: "text/event-stream" } });
    expect(get.status).toBe(405);
  });

  it("the official client without OAuth reports a bad key as 401 'Invalid API key'", async () => {
    const client = new Client({ name: "no-oauth", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${inject("baseUrl")}/api/mcp`), {
      requestInit: { headers: { Authorization: "Bearer adl_not_a_real_key" } },
    });
    const failure = await client.connect(transport).then(
      () => null,
      (e: Error) => e,
    );
    expect(failure?.message).toMatch(/401|Unauthorized/i);
  });

  it("refuses a browser Origin that is not allowed with 403 before anything else, and never answers CORS with *", async () => {
    const t = await createTenant();
    const base = inject("baseUrl");
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } },
    };
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", Authorization: `Bearer ${t.key}` };
    // A DNS-rebinding page: its Origin and Host both name the attacker's domain.
    const rebinding = await fetch(`${base}/api/mcp`, {
      method: "POST",
      headers: { ...headers, Origin: "http://evil.example", Host: "evil.example" },
      body: JSON.stringify(init),
    });
    expect(rebinding.status).toBe(403);
    expect((await rebinding.json()).error).toMatchObject({ code: "forbidden", message: expect.stringContaining("http://evil.example") });
    expect(rebinding.headers.get("access-control-allow-origin")).toBeNull();
    // Refused before authentication: no key, same answer.
    const anonymous = await fetch(`${base}/api/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "http://evil.example" },
      body: "{}",
    });
    expect(anonymous.status).toBe(403);
    const preflight = await fetch(`${base}/api/mcp`, {
      method: "OPTIONS",
      headers: { Origin: "http://evil.example", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();

    // The service's own origin (PUBLIC_BASE_URL; unset here, so http://localhost:PORT) is allowed and named, not *.
    const own = `http://localhost:${new URL(base).port}`;
    const allowed = await fetch(`${base}/api/mcp`, { method: "POST", headers: { ...headers, Origin: own }, body: JSON.stringify(init) });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(own);
    expect(allowed.headers.get("vary")).toMatch(/Origin/);
    const ownPreflight = await fetch(`${base}/api/mcp`, { method: "OPTIONS", headers: { Origin: own, "Access-Control-Request-Method": "POST" } });
    expect(ownPreflight.status).toBe(204);
    expect(ownPreflight.headers.get("access-control-allow-origin")).toBe(own);
    expect(ownPreflight.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
    // Without Origin (every non-browser client): served, no CORS header at all.
    const plain = await fetch(`${base}/api/mcp`, { method: "POST", headers, body: JSON.stringify(init) });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("access-control-allow-origin")).toBeNull();
  });
});
