import os from "node:os";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, inject, it } from "vitest";
import { Adloom } from "@adloom/sdk";
import { createMemberKey, createTenant } from "../helpers/fixtures";
import { toolResult } from "../tools/helpers";
import { runAdloom } from "../helpers/cli";
import { adCopy, adCreatives, campaignWithAdSet } from "./helpers";

/** Ads on every surface: a create, an activate and a refusal by scope, over MCP, the CLI and the SDK. */

async function material(key: string) {
  const [{ creativeId }] = await adCreatives(key);
  const copyVariantId = await adCopy(key, creativeId!);
  const { adSet } = await campaignWithAdSet(key, "platform_a");
  return { adSetId: adSet.id, creativeId: creativeId!, copyVariantId, callToAction: "learn_more" as const, landingUrl: "https://example.com" };
}

const cli = (args: string[], key: string) => runAdloom(args, { ADLOOM_API_KEY: key, ADLOOM_CONFIG_DIR: os.tmpdir() });

describe("ads on every surface", () => {
  it("MCP: creates an ad, activates it, and refuses a key without the launch scope", async () => {
    const t = await createTenant();
    const args = await material(t.key);
    const connect = async (key: string) => {
      const client = new Client({ name: "ads-tests", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${inject("baseUrl")}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
      );
      return client;
    };
    const client = await connect(t.key);
    try {
      const { tools } = await client.listTools();
      expect(tools.find((x) => x.name === "activate_ads")!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
      const created = await client.callTool({ name: "create_ad", arguments: args });
      expect(created.isError).toBeFalsy();
      const adId = (created.structuredContent as any).ad.id;
      const activated = await client.callTool({ name: "activate_ads", arguments: { adIds: [adId] } });
      expect((activated.structuredContent as any).ads[0].status).toBe("active");

      const scoped = await createMemberKey(t, { role: "owner", scopes: ["ads", "ads_view"] });
      const limited = await connect(scoped.key);
      try {
        const refused = await limited.callTool({ name: "pause_ads", arguments: { adIds: [adId] } });
        expect(refused.isError).toBeFalsy(); // pausing is `ads`
        const noLaunch = await limited.callTool({ name: "activate_ads", arguments: { adIds: [adId] } });
        expect(noLaunch.isError).toBe(true);
        expect(JSON.parse((noLaunch.content as any)[0].text).error).toMatchObject({ code: "forbidden", message: expect.stringContaining('"launch"') });
      } finally {
        await limited.close();
      }
    } finally {
      await client.close();
    }
  }, 180_000);

  it("CLI: tools call create_ad and activate_ads; a scope refusal exits 3", async () => {
    const t = await createTenant();
    const args = await material(t.key);
    const created = await cli(["tools", "call", "create_ad", JSON.stringify(args), "--json"], t.key);
    expect(created.code, created.stderr).toBe(0);
    const adId = created.json.result.ad.id;
    const activated = await cli(["tools", "call", "activate_ads", "--ad-ids", adId, "--json"], t.key);
    expect(activated.code, activated.stderr).toBe(0);
    expect(activated.json.result.ads[0].status).toBe("active");
    const viewerish = await createMemberKey(t, { role: "owner", scopes: ["ads_view"] });
    const refused = await cli(["tools", "call", "create_ad", JSON.stringify(args), "--json"], viewerish.key);
    expect(refused.code).toBe(3);
    expect(refused.json.error).toMatchObject({ code: "forbidden", message: expect.stringContaining('"ads"') });
  }, 180_000);

  it("SDK: tools.call create_ad and activate_ads; a scope refusal is a typed error", async () => {
    const t = await createTenant();
    const args = await material(t.key);
    const sdk = new Adloom({ apiKey: t.key, baseUrl: inject("baseUrl") });
    const made = await sdk.tools.call("create_ad", args);
    expect(made.build).toBeNull(); // an image goes to the account in the call: the ad is built at once
    const ad = made.ad!;
    expect(ad.status).toBe("paused");
    const { ads } = await sdk.tools.call("activate_ads", { adIds: [ad.id] });
    expect(ads[0]!.status).toBe("active");
    const scoped = await createMemberKey(t, { role: "admin", scopes: ["ads_view", "ads"] });
    const err = await new Adloom({ apiKey: scoped.key, baseUrl: inject("baseUrl") }).tools.call("delete_ads", { adIds: [ad.id] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: "forbidden", status: 403 });
    expect((await toolResult(t.key, "get_ad", { id: ad.id })).ad.status).toBe("active");
  }, 180_000);
});
