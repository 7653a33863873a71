import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, inject, it } from "vitest";
import { createTenant } from "../helpers/fixtures";
import { toolResult } from "../tools/helpers";

const clients: Client[] = [];
async function connect(key: string): Promise<Client> {
  const client = new Client({ name: "adloom-tests", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${inject("baseUrl")}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
  );
  clients.push(client);
  return client;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

describe("the assistant as an MCP prompt", () => {
  it("is listed, and carries the workspace's brand voice, naming convention and the confirmation rule", async () => {
    const t = await createTenant();
    await toolResult(t.key, "update_ai_settings", { brandVoice: "Calm and exact", namingConvention: "{date}_{product}" });
    const client = await connect(t.key);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain("assistant");
    const prompt = await client.getPrompt({ name: "assistant", arguments: { question: "Which creatives win?" } });
    const text = (prompt.messages[0]!.content as { type: "text"; text: string }).text;
    expect(text).toContain("Brand voice: Calm and exact");
    expect(text).toContain("Naming convention: {date}_{product}");
    expect(text).toMatch(/destructive.*wait for my explicit yes/s);
    expect(text).toContain("My question: Which creatives win?");
    await expect(client.getPrompt({ name: "nope" })).rejects.toThrow(/Unknown prompt/);
  });
});
