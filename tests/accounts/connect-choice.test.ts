/**
 * The dashboard Connect's choice step, through the real stack: an authorization that reaches several
 * ad accounts and Pages (Meta) or advertisers (TikTok) is held server-side, the marketer picks, and
 * only the picked accounts (with the picked Page) are stored. Another workspace cannot complete it,
 * and an expired one is refused. The platforms are the wire fakes tests/helpers/fake-meta.ts and fake-tiktok.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, createTenant } from "../helpers/fixtures";
import { type FakeMeta, fakeMeta } from "../helpers/fake-meta";
import { type FakeTikTok, fakeTikTok } from "../helpers/fake-tiktok";
import { migratedDataDir, startServer, type TestServer } from "../helpers/server";
import { cookieHeader, signIn } from "../dashboard/session";
import { callTool } from "../tools/helpers";

const ACCOUNTS = ["act_111", "act_222", "act_333"];
const PAGES = ["9001", "9002"];
const ADVERTISERS = ["7100000000000000001", "7100000000000000002", "7100000000000000003"];
const CHOICE_SECONDS = 10;

let meta: FakeMeta;
let tiktok: FakeTikTok;
let server: TestServer;
const dataDir = await migratedDataDir("connect-choice");

beforeAll(async () => {
  meta = await fakeMeta({
    version: "v24.0",
    appId: "meta-app",
    appSecret: "meta-secret",
    accounts: {
      act_111: { name: "Acme EU", currency: "EUR", timezone_name: "Europe/Berlin", account_status: 1 },
      act_222: { name: "Acme US", currency: "USD", timezone_name: "America/Chicago", account_status: 1 },
      act_333: { name: "Acme JP", currency: "JPY", timezone_name: "Asia/Tokyo", account_status: 1 },
    },
    pages: { "9001": { name: "Acme Brand" }, "9002": { name: "Acme Shop" } },
    // One item per page of /me/adaccounts and /me/accounts: the choice's lists come from more than one page of Graph's cursor paging.
    listPageSize: 1,
    oauth: [
      { code: "meta-many", token: "meta-many-token", accountIds: ACCOUNTS, pageIds: PAGES },
      { code: "meta-late", token: "meta-late-token", accountIds: ACCOUNTS, pageIds: PAGES },
    ],
  });
  tiktok = await fakeTikTok({
    advertisers: Object.fromEntries(
      ADVERTISERS.map((id, i) => [id, { name: `Acme TikTok ${i + 1}`, currency: "USD", timezone: "Etc/GMT", status: "STATUS_ENABLE" }]),
    ),
    oauth: { appId: "tt-app", secret: "tt-secret", code: "tt-many", token: "tt-many-token", advertiserIds: ADVERTISERS },
  });
  server = await startServer({
    dataDir,
    env: {
      PLATFORM_A_API_URL: meta.url,
      PLATFORM_A_API_VERSION: "v24.0",
      PLATFORM_A_APP_ID: "meta-app",
      PLATFORM_A_APP_SECRET: "meta-secret",
      PLATFORM_B_API_URL: tiktok.url,
      PLATFORM_B_APP_ID: "tt-app",
      PLATFORM_B_APP_SECRET: "tt-secret",
      AD_ACCOUNT_CHOICE_SECONDS: String(CHOICE_SECONDS),
      LEADS_POLL: "0",
    },
  });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await meta?.close();
  await tiktok?.close();
});

const run = (argv: string[]) => admin<any>(argv, server.dataDir);

async function browser(name: string) {
  const email = `${name}-${Date.now()}@example.com`;
  const { workspaceId } = await run(["workspace", "create", "--name", `${name} Co`, "--owner-email", email]);
  await run(["user", "password", "--email", email, "--password", "a long enough password"]);
  const { jar, signedIn } = await signIn(email, "a long enough password", "", server.url);
  expect(signedIn).toBe(true);
  const request = async (p: string, init: RequestInit = {}) => {
    const res = await fetch(server.url + p, { ...init, headers: { ...init.headers, Cookie: cookieHeader(jar) }, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const i = pair!.indexOf("=");
      jar.set(pair!.slice(0, i).trim(), pair!.slice(i + 1));
    }
    return { status: res.status, location: new URL(res.headers.get("location") ?? "", server.url), text: () => res.text() };
  };
  /** Connect -> the platform -> back to the callback with `code`; answers where the browser lands. */
  const authorize = async (platform: "platform_a" | "platform_b", code: string) => {
    const start = await request(`/api/ad-accounts/oauth/${platform}/start`);
    const state = start.location.searchParams.get("state")!;
    return request(`/api/ad-accounts/oauth/${platform}/callback?${platform === "platform_a" ? "code" : "auth_code"}=${code}&state=${state}`);
  };
  const choose = (pendingId: string, accounts: string[], page?: string) => {
    const form = new URLSearchParams();
    for (const a of accounts) form.append("account", a);
    if (page) form.set("page", page);
    return request(`/api/ad-accounts/oauth/pending/${pendingId}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      body: form.toString(),
    });
  };
  const live = async () => (await run(["adaccount", "list", "--workspace", workspaceId])).adAccounts.filter((a: any) => a.mode === "live");
  return { workspaceId, request, authorize, choose, live };
}

describe("Connect's choice step", () => {
  it("Meta: three accounts and two Pages -> a choice; two accounts and the second Page are stored, nothing else", async () => {
    const owner = await browser("chooser");
    const back = await owner.authorize("platform_a", "meta-many");
    expect(back.status).toBe(303);
    expect(back.location.pathname).toBe("/dashboard/settings/ad-accounts");
    const pendingId = back.location.searchParams.get("choose")!;
    expect(pendingId).toMatch(/^adgrant_/);
    expect(await owner.live()).toEqual([]);

    // The page lists the candidates by name; the token never reaches the browser.
    const page = await owner.request(`/dashboard/settings/ad-accounts?choose=${pendingId}`);
    const html = await page.text();
    for (const name of ["Acme EU", "Acme US", "Acme JP", "Acme Brand", "Acme Shop"]) expect(html).toContain(name);
    expect(html).not.toContain("meta-many-token");

    // Another workspace's owner cannot complete (or see) it.
    const stranger = await browser("stranger");
    const foreign = await stranger.choose(pendingId, ["act_111"], "9001");
    expect(foreign.location.searchParams.get("error")).toMatch(/not found/i);
    expect(await stranger.live()).toEqual([]);

    // A Page or account the authorization did not grant is refused, and the choice stays open.
    const wrong = await owner.choose(pendingId, ["act_111", "act_999"], "9002");
    expect(wrong.location.searchParams.get("choose")).toBe(pendingId);
    expect(wrong.location.searchParams.get("error")).toMatch(/act_999/);

    const done = await owner.choose(pendingId, ["act_111", "act_333"], "9002");
    expect(done.location.searchParams.get("error")).toBeNull();
    expect(done.location.searchParams.get("connected")).toBe("2");
    const stored = await owner.live();
    expect(stored.map((a: any) => a.externalId).sort()).toEqual(["act_111", "act_333"]);
    // Both publish as the picked Page (what the dashboard reads through the tools).
    const listed = await owner.request("/api/v1/tools/list_connected_ad_accounts", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.url },
      body: "{}",
    });
    const live = JSON.parse(await listed.text()).result.adAccounts.filter((a: any) => a.mode === "live");
    expect(live.map((a: any) => [a.externalAccountId, a.pageId]).sort()).toEqual([
      ["act_111", "9002"],
      ["act_333", "9002"],
    ]);

    // Used once: a second submit finds nothing.
    const again = await owner.choose(pendingId, ["act_222"], "9001");
    expect(again.location.searchParams.get("error")).toMatch(/not found/i);
    expect((await owner.live()).length).toBe(2);
  }, 120_000);

  it("TikTok: several advertisers -> a choice; only the picked one is stored", async () => {
    const owner = await browser("tiktok");
    const back = await owner.authorize("platform_b", "tt-many");
    const pendingId = back.location.searchParams.get("choose")!;
    expect(pendingId).toBeTruthy();
    const html = await (await owner.request(`/dashboard/settings/ad-accounts?choose=${pendingId}`)).text();
    expect(html).toContain("Acme TikTok 2");
    const done = await owner.choose(pendingId, [ADVERTISERS[1]!]);
    expect(done.location.searchParams.get("connected")).toBe("1");
    expect((await owner.live()).map((a: any) => a.externalId)).toEqual([ADVERTISERS[1]]);
    expect(tiktok.requests.some((r) => r.path.endsWith("/oauth2/advertiser/get/") && r.query.get("secret") === "tt-secret")).toBe(true);
  }, 120_000);

  it("a refusal of the old token that arrives after a reconnect leaves the reconnected account active", async () => {
    const t = await createTenant({ dataDir: server.dataDir });
    const call = (name: string, args: unknown = {}) => callTool(t.key, name, args, {}, server.url);
    const connect = (accessToken: string) =>
      call("connect_ad_account", { platform: "platform_a", externalAccountId: "act_222", accessToken, makeDefault: true });
    meta.grant("race-old-token", ["act_222"]);
    expect((await connect("race-old-token")).status).toBe(200);

    // A call with the old token is on its way when the token expires and the marketer reconnects with a new one.
    const held = meta.holdNext(/\/act_222$/, (p) => p.access_token === "race-old-token");
    const inFlight = call("get_ad_account", { platform: "platform_a" });
    await held.arrived;
    meta.revoke("race-old-token");
    meta.grant("race-new-token", ["act_222"]);
    expect((await connect("race-new-token")).body.result.adAccount).toMatchObject({ status: "active" });
    held.release();
    const late = await inFlight;
    expect(late.body.error).toMatchObject({ code: "upstream_error", message: expect.stringMatching(/reconnected while this call ran/) });

    const listed = (await call("list_connected_ad_accounts")).body.result.adAccounts.find((a: any) => a.externalAccountId === "act_222");
    expect(listed).toMatchObject({ status: "active", statusReason: null, isDefault: true });
    const again = await call("get_ad_account", { platform: "platform_a" });
    expect(again.status).toBe(200);
    expect(meta.requests.at(-1)!.params.access_token).toBe("race-new-token");
  }, 60_000);

  it("an expired choice is refused with a clear error and stores nothing", async () => {
    const owner = await browser("late");
    const back = await owner.authorize("platform_a", "meta-late");
    const pendingId = back.location.searchParams.get("choose")!;
    await new Promise((r) => setTimeout(r, (CHOICE_SECONDS + 1) * 1000));
    const late = await owner.choose(pendingId, ["act_111"], "9001");
    expect(late.location.searchParams.get("error")).toMatch(/expired.*Connect again/);
    expect(await owner.live()).toEqual([]);
  }, 120_000);
});
