/**
 * A connected Meta account's Page identity, through HTTP: list_ad_account_pages reads every page of
 * Graph's cursor paging (/me/accounts, the fake answers two Pages per page), set_ad_account_page
 * changes the Page later; refusals for a Page the token does not reach, a sandbox account and another
 * workspace's account.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, createTenant, type Tenant } from "../helpers/fixtures";
import { fakeMeta, type FakeMeta } from "../helpers/fake-meta";
import { startServer, tempDataDir, type TestServer } from "../helpers/server";
import { callTool } from "../tools/helpers";

const PAGES = ["3000001", "3000002", "3000003", "3000004", "3000005"];
let meta: FakeMeta;
let server: TestServer;
let t: Tenant;
let other: Tenant;
let accountId: string;

beforeAll(async () => {
  meta = await fakeMeta({
    version: "v24.0",
    appId: "meta-app",
    appSecret: "meta-secret",
    accounts: { act_900000001: { name: "Acme", currency: "USD", timezone_name: "America/New_York", account_status: 1 } },
    pages: Object.fromEntries(PAGES.map((id, i) => [id, { name: `Acme Page ${i + 1}` }])),
    listPageSize: 2,
  });
  meta.grant("pages-token", ["act_900000001"], PAGES);
  const dataDir = tempDataDir("meta-pages");
  server = await startServer({
    dataDir,
    env: { PLATFORM_A_API_URL: meta.url, PLATFORM_A_API_VERSION: "v24.0", PLATFORM_A_APP_SECRET: "meta-secret", LEADS_POLL: "0" },
  });
  t = await createTenant({ dataDir });
  other = await createTenant({ dataDir });
  const connected = await admin<any>(
    [
      "adaccount",
      "connect",
      "--workspace",
      t.workspaceId,
      "--platform",
      "platform_a",
      "--account",
      "act_900000001",
      "--token",
      "pages-token",
      "--page",
      PAGES[0]!,
    ],
    dataDir,
  );
  accountId = connected.adAccountId;
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await meta?.close();
});

const tool = (key: string, name: string, args: unknown) => callTool(key, name, args, {}, server.url);

describe("a Meta account's Page identity", () => {
  it("lists every Page over Graph's cursor pages and changes the Page later", async () => {
    const before = meta.requests.filter((r) => r.path.endsWith("/me/accounts")).length;
    const listed = await tool(t.key, "list_ad_account_pages", { id: accountId });
    expect(listed.status).toBe(200);
    expect(listed.body.result.pageId).toBe(PAGES[0]);
    expect(listed.body.result.pages).toEqual(PAGES.map((id, i) => ({ id, name: `Acme Page ${i + 1}`, current: i === 0 })));
    // Five Pages at two per page: three requests, each after the previous page's cursor.
    const reads = meta.requests.filter((r) => r.path.endsWith("/me/accounts")).slice(before);
    expect(reads).toHaveLength(3);
    expect(reads[0]!.params.after).toBeUndefined();
    expect(reads[1]!.params.after).toBeTruthy();

    const set = await tool(t.key, "set_ad_account_page", { id: accountId, pageId: PAGES[4] });
    expect(set.status).toBe(200);
    expect(set.body.result).toMatchObject({ adAccount: { id: accountId, pageId: PAGES[4] }, page: { id: PAGES[4], name: "Acme Page 5" } });
    const { adAccounts } = (await tool(t.key, "list_connected_ad_accounts", {})).body.result;
    expect(adAccounts.find((a: any) => a.id === accountId).pageId).toBe(PAGES[4]);
  }, 120_000);

  it("refuses a Page the token does not reach, a sandbox account, another workspace's account and a malformed Page id", async () => {
    const foreign = await tool(t.key, "set_ad_account_page", { id: accountId, pageId: "3999999" });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.code).toBe("invalid_input");
    expect(foreign.body.error.message).toContain("list_ad_account_pages");

    const { adAccounts } = (await tool(t.key, "list_connected_ad_accounts", {})).body.result;
    const sandbox = adAccounts.find((a: any) => a.sandbox); // platform_b: the live Meta account became platform_a's default before any sandbox one was made
    const onSandbox = await tool(t.key, "list_ad_account_pages", { id: sandbox.id });
    expect(onSandbox.status).toBe(400);
    expect(onSandbox.body.error.code).toBe("invalid_input");

    const fromOther = await tool(other.key, "set_ad_account_page", { id: accountId, pageId: PAGES[1] });
    expect(fromOther.status).toBe(404);
    expect((await tool(other.key, "list_ad_account_pages", { id: accountId })).status).toBe(404);
    const malformed = await tool(t.key, "set_ad_account_page", { id: accountId, pageId: "not-a-page" });
    expect(malformed.status).toBe(400);
  }, 120_000);
});
