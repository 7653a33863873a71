import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema, McpError, ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, inject, it } from "vitest";
import { createMemberKey, createTenant } from "../helpers/fixtures";
import { readyCreative } from "../tools/helpers";

const clients: Client[] = [];

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: "adloom-features", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${inject("baseUrl")}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
  );
  clients.push(client);
  return client;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

describe("MCP resources, prompts, completion, logging and progress", () => {
  it("declares the capabilities", async () => {
    const client = await connect((await createTenant()).key);
    expect(client.getServerCapabilities()).toMatchObject({
      tools: {},
      resources: { listChanged: true },
      prompts: {},
      logging: {},
      completions: {},
    });
  });

  it("lists and reads creatives and performance reports as resources, through templates too, and only the caller's own", async () => {
    const t = await createTenant();
    const { creativeId, fileName } = await readyCreative(t.key);
    const client = await connect(t.key);
    const { resources } = await client.listResources();
    expect(resources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ uri: "adloom://reports/creative-performance", mimeType: "application/json" }),
        expect.objectContaining({ uri: "adloom://reports/insights/campaign" }),
        expect.objectContaining({ uri: `adloom://creatives/${creativeId}`, name: fileName }),
      ]),
    );
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual(["adloom://creatives/{id}", "adloom://reports/insights/{level}"]);

    const read = await client.readResource({ uri: `adloom://creatives/${creativeId}` });
    expect(JSON.parse((read.contents[0] as { text: string }).text).creative).toMatchObject({ id: creativeId, fileName });
    const report = await client.readResource({ uri: "adloom://reports/creative-performance" });
    expect(JSON.parse((report.contents[0] as { text: string }).text)).toHaveProperty("creatives");

    // Another workspace's creative, and a URI that names nothing: resource not found (-32002).
    const other = await connect((await createTenant()).key);
    const foreign = await other.readResource({ uri: `adloom://creatives/${creativeId}` }).catch((e) => e);
    expect(foreign).toBeInstanceOf(McpError);
    expect(foreign.code).toBe(-32002);
    expect((await other.listResources()).resources.map((r) => r.uri)).not.toContain(`adloom://creatives/${creativeId}`);
    expect((await client.readResource({ uri: "adloom://nothing/here" }).catch((e) => e)).code).toBe(-32002);
  });

  it("offers the three prompts, with the creatives embedded, and refuses missing arguments", async () => {
    const t = await createTenant();
    const { creativeId } = await readyCreative(t.key);
    const client = await connect(t.key);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["launch_creatives", "weekly_performance_review", "review_creative", "assistant"]);

    const launch = await client.getPrompt({ name: "launch_creatives", arguments: { creativeIds: creativeId, platform: "platform_b" } });
    expect((launch.messages[0]!.content as { text: string }).text).toContain("build_ads_from_library");
    expect(launch.messages[1]!.content).toMatchObject({ type: "resource", resource: { uri: `adloom://creatives/${creativeId}` } });
    const review = await client.getPrompt({ name: "review_creative", arguments: { creativeId } });
    expect(review.messages.at(-1)!.content).toMatchObject({ type: "resource" });
    const weekly = await client.getPrompt({ name: "weekly_performance_review", arguments: {} });
    expect(weekly.messages.at(-1)!.content).toMatchObject({ type: "resource", resource: { uri: "adloom://reports/creative-performance" } });

    expect((await client.getPrompt({ name: "review_creative", arguments: {} }).catch((e) => e)).code).toBe(-32602);
    expect((await client.getPrompt({ name: "no_such_prompt", arguments: {} }).catch((e) => e)).code).toBe(-32602);
  });

  it("completes creative ids by prefix for prompts and templates, and fixed values", async () => {
    const t = await createTenant();
    const { creativeId } = await readyCreative(t.key);
    const client = await connect(t.key);
    const prefix = creativeId.slice(0, 6);
    const byPrompt = await client.complete({ ref: { type: "ref/prompt", name: "review_creative" }, argument: { name: "creativeId", value: prefix } });
    expect(byPrompt.completion.values).toContain(creativeId);
    const none = await client.complete({ ref: { type: "ref/prompt", name: "review_creative" }, argument: { name: "creativeId", value: "zzz" } });
    expect(none.completion.values).toEqual([]);
    const byTemplate = await client.complete({ ref: { type: "ref/resource", uri: "adloom://creatives/{id}" }, argument: { name: "id", value: creativeId } });
    expect(byTemplate.completion.values).toEqual([creativeId]);
    const list = await client.complete({ ref: { type: "ref/prompt", name: "launch_creatives" }, argument: { name: "creativeIds", value: `crt_a, ${prefix}` } });
    expect(list.completion.values).toContain(`crt_a, ${creativeId}`);
    const level = await client.complete({ ref: { type: "ref/resource", uri: "adloom://reports/insights/{level}" }, argument: { name: "level", value: "ad" } });
    expect(level.completion.values).toEqual(["ad", "ad_set"]);
    // Another workspace's ids are never offered.
    const other = await connect((await createTenant()).key);
    expect(
      (await other.complete({ ref: { type: "ref/prompt", name: "review_creative" }, argument: { name: "creativeId", value: prefix } })).completion.values,
    ).toEqual([]);
  });

  it("sends progress, log messages at the level set, and resources/list_changed after a call that changes the library", async () => {
    const t = await createTenant();
    const { creativeId } = await readyCreative(t.key);
    const client = await connect(t.key);
    const logs: { level: string; data: unknown }[] = [];
    let listChanged = 0;
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void listChanged++);
    await client.setLoggingLevel("info");

    const progress: { progress: number; total?: number }[] = [];
    const result = await client.callTool({ name: "list_creatives", arguments: {} }, undefined, { onprogress: (p) => void progress.push(p) });
    expect(result.isError).toBeFalsy();
    expect(progress).toEqual([expect.objectContaining({ progress: 0, total: 1 }), expect.objectContaining({ progress: 1, total: 1 })]);
    expect(logs).toEqual([expect.objectContaining({ level: "info", data: expect.objectContaining({ tool: "list_creatives", event: "succeeded" }) })]);
    expect(listChanged).toBe(0);

    await client.callTool({ name: "delete_creatives", arguments: { ids: [creativeId] } });
    expect(listChanged).toBe(1);
    await client.callTool({ name: "get_creative", arguments: { id: creativeId } });
    expect(logs.at(-1)).toMatchObject({ level: "warning", data: { tool: "get_creative", event: "failed", error: { code: "not_found" } } });

    // The level belongs to the credential: another key of the workspace still gets only warnings and above.
    const quiet = await connect((await createMemberKey(t, { role: "editor" })).key);
    const quietLogs: unknown[] = [];
    quiet.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void quietLogs.push(n.params));
    await quiet.callTool({ name: "list_creatives", arguments: {} });
    expect(quietLogs).toEqual([]);
  });
});
