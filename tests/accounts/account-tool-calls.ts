import { expect } from "vitest";
import { admin, createMemberKey, type Tenant } from "../helpers/fixtures";
import { callTool, toolResult } from "../tools/helpers";

/**
 * The accounts tools' REST scenarios on the shared server (spread into tests/tools/tool-calls.ts).
 * Its live platforms are not reachable, so connecting is checked up to the platform call here;
 * tests/accounts/live-accounts.test.ts connects against local wire fakes.
 */
export const ACCOUNT_TOOL_CALLS: Record<string, (t: Tenant) => Promise<void>> = {
  async list_connected_ad_accounts(t) {
    const { adAccounts } = await toolResult(t.key, "list_connected_ad_accounts", {});
    expect(adAccounts.map((a: any) => [a.platform, a.mode, a.sandbox, a.status, a.isDefault])).toEqual([
      ["platform_a", "sandbox", true, "active", true],
      ["platform_b", "sandbox", true, "active", true],
    ]);
    const cli = await admin<any>(["adaccount", "list", "--workspace", t.workspaceId]);
    expect(cli.adAccounts.map((a: any) => a.adAccountId)).toEqual(adAccounts.map((a: any) => a.id));
  },

  async connect_ad_account(t) {
    const badId = await callTool(t.key, "connect_ad_account", { platform: "platform_b", externalAccountId: "act_123", accessToken: "x" });
    expect(badId.status).toBe(400);
    expect(badId.body.error).toMatchObject({ code: "invalid_input", message: expect.stringMatching(/advertiser id/) });
    // Connecting an account is workspace administration: an editor may not.
    const editor = await createMemberKey(t, { role: "editor" });
    const refused = await callTool(editor.key, "connect_ad_account", { platform: "platform_a", externalAccountId: "act_123", accessToken: "x" });
    expect(refused.status).toBe(403);
  },

  async disconnect_ad_account(t) {
    const { adAccounts } = await toolResult(t.key, "list_connected_ad_accounts", {});
    const res = await callTool(t.key, "disconnect_ad_account", { id: adAccounts[0].id });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/Sandbox accounts cannot be disconnected/);
    expect((await callTool(t.key, "disconnect_ad_account", { id: "adacct_missing" })).status).toBe(404);
  },

  async set_default_ad_account(t) {
    const { adAccounts } = await toolResult(t.key, "list_connected_ad_accounts", {});
    const { adAccount } = await toolResult(t.key, "set_default_ad_account", { id: adAccounts[1].id });
    expect(adAccount).toMatchObject({ id: adAccounts[1].id, platform: "platform_b", isDefault: true });
    expect((await toolResult(t.key, "get_ad_account", { platform: "platform_b" })).account.id).toBe(adAccounts[1].id);
  },

  // The shared server reaches no live platform: its sandbox accounts have no Page to list or set, which the tools
  // refuse; tests/accounts/meta-pages.test.ts lists and sets Pages of a live account against the Meta wire fake.
  async list_ad_account_pages(t) {
    const { adAccounts } = await toolResult(t.key, "list_connected_ad_accounts", {});
    const onSandbox = await callTool(t.key, "list_ad_account_pages", { id: adAccounts[0].id });
    expect(onSandbox.status).toBe(400);
    expect(onSandbox.body.error.code).toBe("invalid_input");
    expect((await callTool(t.key, "list_ad_account_pages", { id: "adacct_missing" })).status).toBe(404);
  },

  async set_ad_account_page(t) {
    const { adAccounts } = await toolResult(t.key, "list_connected_ad_accounts", {});
    const malformed = await callTool(t.key, "set_ad_account_page", { id: adAccounts[0].id, pageId: "not-a-page" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toMatch(/pageId/);
    const onSandbox = await callTool(t.key, "set_ad_account_page", { id: adAccounts[0].id, pageId: "1234567" });
    expect(onSandbox.status).toBe(400);
    const editor = await createMemberKey(t, { role: "editor" });
    expect((await callTool(editor.key, "set_ad_account_page", { id: adAccounts[0].id, pageId: "1234567" })).status).toBe(403);
  },
};
