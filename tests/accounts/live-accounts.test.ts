/**
 * Ad accounts as connections, through the real stack: a server whose live platforms are local wire
 * fakes (PLATFORM_A_API_URL, PLATFORM_B_API_URL), accounts connected by the operator CLI and the
 * tools, a token the platform stops accepting, disconnecting, and a CREDENTIALS_KEY rotation.
 */
import { execFile } from "node:child_process";
import { createHmac } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, createTenant, type Tenant } from "../helpers/fixtures";
import { fakeBusinessApi, fakeGraphApi, type PlatformFake } from "../helpers/platform-fakes";
import { migratedDataDir, startServer, type TestServer } from "../helpers/server";
import { callTool } from "../tools/helpers";
import { cookieHeader, signIn } from "../dashboard/session";

const ROOT = path.resolve(__dirname, "../..");
const APP_SECRET = "fake-app-secret";
const META_ACCOUNT = "act_1020304050";
const TIKTOK_ADVERTISER = "7123456789012345678";

let graph: PlatformFake;
let business: PlatformFake;
let server: TestServer;
const dataDir = await migratedDataDir("accounts");

async function start(extraEnv: Record<string, string> = {}) {
  server = await startServer({
    dataDir,
    env: {
      PLATFORM_A_API_URL: graph.url,
      PLATFORM_A_API_VERSION: "v24.0",
      PLATFORM_A_APP_ID: "meta-app-1",
      PLATFORM_A_APP_SECRET: APP_SECRET,
      PLATFORM_B_API_URL: business.url,
      PLATFORM_B_APP_ID: "tt-app-1",
      PLATFORM_B_APP_SECRET: "tt-secret-1",
      LEADS_POLL: "0",
      ...extraEnv,
    },
  });
}

beforeAll(async () => {
  graph = await fakeGraphApi({
    version: "v24.0",
    appSecret: APP_SECRET,
    accounts: {
      [META_ACCOUNT]: { name: "Acme EU", currency: "EUR", timezone_name: "Europe/Berlin", account_status: 1 },
      act_5566: { name: "Acme US", currency: "USD", timezone_name: "America/Chicago", account_status: 1 },
    },
    oauth: { appId: "meta-app-1", code: "meta-code-1", token: "meta-oauth-token", accountIds: ["act_5566"] },
  });
  business = await fakeBusinessApi({
    advertisers: {
      [TIKTOK_ADVERTISER]: { name: "Acme TikTok", currency: "JPY", timezone: "Etc/GMT-9", display_timezone: "Asia/Tokyo", status: "STATUS_ENABLE" },
      "7000000000000000777": { name: "Acme TikTok US", currency: "USD", timezone: "Etc/GMT+6", display_timezone: "America/Chicago", status: "STATUS_ENABLE" },
    },
    oauth: { appId: "tt-app-1", secret: "tt-secret-1", code: "tt-code-1", token: "tt-oauth-token", advertiserIds: ["7000000000000000777"] },
  });
  await start();
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await graph?.close();
  await business?.close();
});

const tool = (t: Tenant, name: string, args: unknown = {}) => callTool(t.key, name, args, {}, server.url);
const run = (argv: string[]) => admin<any>(argv, server.dataDir);

/** `npm run --silent admin -- ...` as an operator types it (handed to the running server). */
function adminCli(args: string[]): Promise<{ status: number; json: any }> {
  return new Promise((resolve) => {
    execFile(
      "npm",
      ["run", "--silent", "admin", "--", ...args],
      { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", NODE_ENV: "production" }, encoding: "utf8", timeout: 60_000 },
      (error, stdout) => {
        const lines = stdout.trim().split("\n");
        resolve({ status: error ? Number(error.code) : 0, json: JSON.parse(lines[lines.length - 1]!) });
      },
    );
  });
}

describe("live ad accounts", () => {
  let t: Tenant;
  let metaAccountId: string;

  it("a new workspace has its sandbox accounts as defaults, labelled sandbox", async () => {
    t = await createTenant({ dataDir: server.dataDir });
    const listed = await run(["adaccount", "list", "--workspace", t.workspaceId]);
    expect(listed.adAccounts).toEqual([
      {
        adAccountId: expect.stringMatching(/^adacct_/),
        platform: "platform_a",
        externalId: expect.stringMatching(/^act_\d+$/),
        mode: "sandbox",
        status: "active",
        default: true,
      },
      {
        adAccountId: expect.stringMatching(/^adacct_/),
        platform: "platform_b",
        externalId: expect.stringMatching(/^\d+$/),
        mode: "sandbox",
        status: "active",
        default: true,
      },
    ]);
    const viaTool = await tool(t, "list_connected_ad_accounts");
    expect(viaTool.status).toBe(200);
    expect(viaTool.body.result.adAccounts.every((a: any) => a.sandbox && a.isDefault && a.reconnectHint === null)).toBe(true);
    // The embedded default generated the credentials key into DATA_DIR, owner-only.
    expect(fs.statSync(path.join(dataDir, "secrets", "credentials-key")).mode & 0o777).toBe(0o600);
  });

  it("adaccount connect reads the account from platform_a with the token (appsecret_proof) and makes it the default", async () => {
    graph.grant("meta-token-1", [META_ACCOUNT]);
    const connected = await run([
      "adaccount",
      "connect",
      "--workspace",
      t.workspaceId,
      "--platform",
      "platform_a",
      "--account",
      META_ACCOUNT,
      "--token",
      "meta-token-1",
      "--page",
      "111222",
    ]);
    expect(connected).toEqual({
      adAccountId: expect.stringMatching(/^adacct_/),
      platform: "platform_a",
      externalId: META_ACCOUNT,
      name: "Acme EU",
      currency: "EUR",
      timeZone: "Europe/Berlin",
      status: "active",
    });
    metaAccountId = connected.adAccountId;
    const read = graph.requests.at(-1)!;
    expect(read.path).toBe(`/v24.0/${META_ACCOUNT}`);
    expect(read.query.get("fields")).toBe("name,currency,timezone_name,account_status");
    expect(read.query.get("appsecret_proof")).toBe(createHmac("sha256", APP_SECRET).update("meta-token-1").digest("hex"));

    const listed = (await tool(t, "list_connected_ad_accounts")).body.result.adAccounts;
    const a = listed.filter((x: any) => x.platform === "platform_a");
    expect(a.map((x: any) => [x.mode, x.isDefault, x.sandbox])).toEqual([
      ["live", true, false],
      ["sandbox", false, true],
    ]);
    expect(JSON.stringify(listed)).not.toContain("meta-token-1");

    // The ads tools now work on the live default: the account as the platform describes it.
    const account = await tool(t, "get_ad_account", { platform: "platform_a" });
    expect(account.status).toBe(200);
    expect(account.body.result.account).toMatchObject({
      id: metaAccountId,
      mode: "live",
      externalAccountId: META_ACCOUNT,
      currency: "EUR",
      timeZone: "Europe/Berlin",
      status: "active",
    });
  });

  it("a refused token: connect stores nothing and exits 1 with not_connected", async () => {
    const refused = await adminCli([
      "adaccount",
      "connect",
      "--workspace",
      t.workspaceId,
      "--platform",
      "platform_a",
      "--account",
      "act_999",
      "--token",
      "not-a-token",
    ]);
    expect(refused.status).toBe(1);
    expect(refused.json.error.code).toBe("not_connected");
    expect(refused.json.error.message).toMatch(/code 190/);
    const listed = await run(["adaccount", "list", "--workspace", t.workspaceId]);
    expect(listed.adAccounts.map((a: any) => a.externalId)).not.toContain("act_999");

    const badId = await tool(t, "connect_ad_account", { platform: "platform_a", externalAccountId: "1020304050", accessToken: "meta-token-1" });
    expect(badId.status).toBe(400);
    expect(badId.body.error).toMatchObject({ code: "invalid_input", message: expect.stringMatching(/act_<digits>/) });
  });

  it("platform_b: the advertiser is read with the Access-Token header; a revoked token is refused with its code", async () => {
    business.grant("tt-token-1", [TIKTOK_ADVERTISER]);
    const connected = await tool(t, "connect_ad_account", {
      platform: "platform_b",
      externalAccountId: TIKTOK_ADVERTISER,
      accessToken: "tt-token-1",
      identityId: "ident-1",
    });
    expect(connected.status).toBe(200);
    expect(connected.body.result.adAccount).toMatchObject({
      platform: "platform_b",
      mode: "live",
      status: "active",
      isDefault: true,
      name: "Acme TikTok",
      currency: "JPY",
      timeZone: "Asia/Tokyo",
      identityId: "ident-1",
    });
    const read = business.requests.at(-1)!;
    expect(read.headers["access-token"]).toBe("tt-token-1");
    expect(JSON.parse(read.query.get("advertiser_ids")!)).toEqual([TIKTOK_ADVERTISER]);

    const refused = await tool(t, "connect_ad_account", { platform: "platform_b", externalAccountId: "7000000000000000001", accessToken: "tt-token-1" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "not_connected", message: expect.stringMatching(/40001/) });
  });

  it("a token the platform stops accepting: needs_reconnect, calls answer not_connected with how to reconnect, nothing retried", async () => {
    graph.revoke("meta-token-1");
    const first = await tool(t, "get_ad_account", { platform: "platform_a" });
    expect(first.status).toBe(400);
    expect(first.body.error.code).toBe("not_connected");
    expect(first.body.error.message).toMatch(/needs to be reconnected/);
    expect(first.body.error.message).toContain(`adaccount connect --workspace ${t.workspaceId} --platform platform_a --account ${META_ACCOUNT}`);
    const callsAfterRefusal = graph.requests.length;

    const again = await tool(t, "list_audiences", { platform: "platform_a" });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("not_connected");
    await new Promise((r) => setTimeout(r, 500));
    expect(graph.requests.length, "the platform is not asked again after refusing the token").toBe(callsAfterRefusal);

    const listed = (await tool(t, "list_connected_ad_accounts")).body.result.adAccounts.find((a: any) => a.id === metaAccountId);
    expect(listed).toMatchObject({
      status: "needs_reconnect",
      isDefault: true,
      statusReason: expect.stringMatching(/code 190/),
      reconnectHint: expect.stringMatching(/Settings > Ad accounts/),
    });

    // Reconnecting with a new token brings it back.
    graph.grant("meta-token-2", [META_ACCOUNT]);
    const reconnected = await run([
      "adaccount",
      "connect",
      "--workspace",
      t.workspaceId,
      "--platform",
      "platform_a",
      "--account",
      META_ACCOUNT,
      "--token",
      "meta-token-2",
    ]);
    expect(reconnected).toMatchObject({ adAccountId: metaAccountId, status: "active" });
    expect((await tool(t, "get_ad_account", { platform: "platform_a" })).status).toBe(200);
  });

  it("no other workspace can see, disconnect or choose the account", async () => {
    const other = await createTenant({ dataDir: server.dataDir });
    expect((await callTool(other.key, "disconnect_ad_account", { id: metaAccountId }, {}, server.url)).status).toBe(404);
    expect((await callTool(other.key, "set_default_ad_account", { id: metaAccountId }, {}, server.url)).status).toBe(404);
    const theirs = (await callTool(other.key, "list_connected_ad_accounts", {}, {}, server.url)).body.result.adAccounts;
    expect(theirs.map((a: any) => a.id)).not.toContain(metaAccountId);
  });

  it("set default and disconnect: the sandbox account takes over, and sandbox accounts stay", async () => {
    const sandboxA = (await tool(t, "list_connected_ad_accounts")).body.result.adAccounts.find((a: any) => a.platform === "platform_a" && a.sandbox);
    expect((await tool(t, "disconnect_ad_account", { id: sandboxA.id })).body.error.code).toBe("conflict");
    expect((await tool(t, "set_default_ad_account", { id: sandboxA.id })).body.result.adAccount).toMatchObject({ id: sandboxA.id, isDefault: true });
    expect((await tool(t, "set_default_ad_account", { id: metaAccountId })).body.result.adAccount).toMatchObject({ id: metaAccountId, isDefault: true });

    expect(await run(["adaccount", "disconnect", "--id", metaAccountId])).toEqual({ ok: true });
    const listed = await run(["adaccount", "list", "--workspace", t.workspaceId]);
    expect(listed.adAccounts.filter((a: any) => a.platform === "platform_a")).toEqual([
      expect.objectContaining({ adAccountId: sandboxA.id, mode: "sandbox", status: "active", default: true }),
      expect.objectContaining({ adAccountId: metaAccountId, mode: "live", status: "disconnected", default: false }),
    ]);
    expect((await tool(t, "get_ad_account", { platform: "platform_a" })).body.result.account.mode).toBe("sandbox");
    const chosen = await tool(t, "set_default_ad_account", { id: metaAccountId });
    expect(chosen.status).toBe(409);
  });

  it("rotating CREDENTIALS_KEY loses nothing: the previous key still opens, reseal moves every token to the new key", async () => {
    const oldKey = fs.readFileSync(path.join(dataDir, "secrets", "credentials-key"), "utf8").trim();
    const newKey = "rotated-credentials-key-0123456789abcdefgh";
    await server.stop();
    await start({ CREDENTIALS_KEY: newKey, CREDENTIALS_KEY_PREVIOUS: oldKey });
    const resealed = await run(["credentials", "reseal"]);
    expect(resealed).toMatchObject({ ok: true, checked: 1, resealed: 1, unreadable: [] });

    await server.stop();
    await start({ CREDENTIALS_KEY: newKey });
    // platform_b's live account still opens its token under the new key alone.
    const account = await tool(t, "get_ad_account", { platform: "platform_b" });
    expect(account.status).toBe(200);
    expect(account.body.result.account).toMatchObject({ mode: "live", externalAccountId: TIKTOK_ADVERTISER, currency: "JPY" });
    expect(business.requests.at(-1)!.headers["access-token"]).toBe("tt-token-1");
  }, 180_000);

  it("the dashboard's Connect flow: to the platform's authorization page with a state, back to the callback, which stores the token and connects the accounts", async () => {
    const email = `oauth-${Date.now()}@example.com`;
    const { workspaceId } = await run(["workspace", "create", "--name", "OAuth Co", "--owner-email", email]);
    await run(["user", "password", "--email", email, "--password", "a long enough password"]);
    const { jar, signedIn } = await signIn(email, "a long enough password", "", server.url);
    expect(signedIn).toBe(true);
    const get = async (p: string) => {
      const res = await fetch(server.url + p, { headers: { Cookie: cookieHeader(jar) }, redirect: "manual" });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(";");
        const i = pair!.indexOf("=");
        jar.set(pair!.slice(0, i).trim(), pair!.slice(i + 1));
      }
      return { status: res.status, location: new URL(res.headers.get("location") ?? "", server.url) };
    };

    for (const [platform, code, externalId, authorizeHost] of [
      ["platform_a", "meta-code-1", "act_5566", "https://www.facebook.com/v24.0/dialog/oauth"],
      ["platform_b", "tt-code-1", "7000000000000000777", "https://business-api.tiktok.com/portal/auth"],
    ] as const) {
      const start = await get(`/api/ad-accounts/oauth/${platform}/start`);
      expect(start.status).toBe(303);
      expect(`${start.location.origin}${start.location.pathname}`).toBe(authorizeHost);
      expect(start.location.searchParams.get(platform === "platform_a" ? "client_id" : "app_id")).toBe(platform === "platform_a" ? "meta-app-1" : "tt-app-1");
      const state = start.location.searchParams.get("state")!;
      expect(start.location.searchParams.get("redirect_uri")).toMatch(new RegExp(`/api/ad-accounts/oauth/${platform}/callback$`));

      // A callback whose state is not this browser's is refused, and nothing is connected.
      const forged = await get(`/api/ad-accounts/oauth/${platform}/callback?code=${code}&state=forged`);
      expect(forged.location.searchParams.get("error")).toMatch(/could not be matched/);
      const again = await get(`/api/ad-accounts/oauth/${platform}/start`);
      const fresh = again.location.searchParams.get("state")!;
      expect(fresh).not.toBe(state);

      const codeParam = platform === "platform_a" ? "code" : "auth_code";
      const back = await get(`/api/ad-accounts/oauth/${platform}/callback?${codeParam}=${code}&state=${fresh}`);
      expect(back.status).toBe(303);
      expect(back.location.pathname).toBe("/dashboard/settings/ad-accounts");
      expect(back.location.searchParams.get("error")).toBeNull();
      expect(back.location.searchParams.get("connected")).toBe("1");
      const listed = await run(["adaccount", "list", "--workspace", workspaceId]);
      expect(listed.adAccounts).toContainEqual({ adAccountId: expect.any(String), platform, externalId, mode: "live", status: "active", default: true });
    }
  });
});
