import fs from "node:fs";
import { type FakeMeta, fakeMeta } from "../tests/helpers/fake-meta";
import { type FakeTikTok, fakeTikTok } from "../tests/helpers/fake-tiktok";
import { freePort } from "../tests/helpers/ports";
import { startServer, type TestServer } from "../tests/helpers/server";
import { expect, signUp, test } from "./support/fixtures";
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE } from "./support/pages";
import { paced } from "../scripts/test-pace.mjs";

/**
 * Connect's choice step in the browser: a live Connect that reaches several ad accounts and Pages (Meta) or
 * advertisers (TikTok) lets the marketer pick, then a connected Meta account's Page can be changed.
 * The platforms, their consent pages included, are the wire fakes tests/helpers/fake-meta.ts and fake-tiktok.ts.
 * This spec runs its own server: with the platform apps configured, Connect is a link, while the shared
 * e2e server keeps them unset (e2e/ad-accounts.spec.ts checks what the operator is told then).
 */
interface LivePlatforms {
  meta: FakeMeta;
  tiktok: FakeTikTok;
  server: TestServer;
}

const liveTest = test.extend<object, { live: LivePlatforms }>({
  live: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from its destructured first parameter
    async ({}, use) => {
      const meta = await fakeMeta({
        version: "v24.0",
        appId: "e2e-meta",
        appSecret: "e2e-meta-secret",
        accounts: {
          act_111: { name: "Acme EU", currency: "EUR", timezone_name: "Europe/Berlin", account_status: 1 },
          act_222: { name: "Acme US", currency: "USD", timezone_name: "America/Chicago", account_status: 1 },
          act_333: { name: "Acme JP", currency: "JPY", timezone_name: "Asia/Tokyo", account_status: 1 },
        },
        pages: { "9001": { name: "Acme Brand" }, "9002": { name: "Acme Shop" } },
        oauth: { code: "meta-three", token: "meta-three-token", accountIds: ["act_111", "act_222", "act_333"], pageIds: ["9001", "9002"] },
      });
      const tiktok = await fakeTikTok({
        advertisers: {
          "7100000000000000001": { name: "Acme TikTok One", currency: "USD", timezone: "Etc/GMT", status: "STATUS_ENABLE" },
          "7100000000000000002": { name: "Acme TikTok Two", currency: "USD", timezone: "Etc/GMT", status: "STATUS_ENABLE" },
        },
        oauth: {
          appId: "e2e-tiktok",
          secret: "e2e-tiktok-secret",
          code: "tt-two",
          token: "tt-two-token",
          advertiserIds: ["7100000000000000001", "7100000000000000002"],
        },
      });
      // The platforms send the browser back to PUBLIC_BASE_URL: the host the browser signs in on.
      const port = await freePort();
      const server = await startServer({
        port,
        env: {
          PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
          PLATFORM_A_API_URL: meta.url,
          PLATFORM_A_API_VERSION: "v24.0",
          PLATFORM_A_APP_ID: "e2e-meta",
          PLATFORM_A_APP_SECRET: "e2e-meta-secret",
          PLATFORM_A_AUTHORIZE_URL: meta.authorizeUrl,
          PLATFORM_B_API_URL: tiktok.url,
          PLATFORM_B_APP_ID: "e2e-tiktok",
          PLATFORM_B_APP_SECRET: "e2e-tiktok-secret",
          PLATFORM_B_AUTHORIZE_URL: tiktok.authorizeUrl,
          LEADS_POLL: "0",
        },
      });
      try {
        await use({ meta, tiktok, server });
      } finally {
        await server.stop();
        await meta.close();
        await tiktok.close();
        fs.rmSync(server.dataDir, { recursive: true, force: true });
      }
    },
    { scope: "worker", timeout: paced(240_000) },
  ],
  baseURL: async ({ live }, use) => use(live.server.url),
});

liveTest("connect choice: Meta with three ad accounts and two Pages, pick two and the second Page, then change the Page; at 1440 px", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signUp(page, { workspace: "Choice Co" });
  await page.goto("/dashboard/settings/ad-accounts");

  // Connect -> the fake's Login dialog -> back to the callback with a code worth three accounts and two Pages.
  await page.getByRole("link", { name: "Connect Platform A account" }).click();
  await expect(page).toHaveURL(/[?&]choose=adgrant_/);
  const choice = page.getByRole("form", { name: "Choose what to connect from Meta" });
  const accounts = choice.getByRole("group", { name: "Which ad accounts?" });
  for (const name of ["Acme EU", "Acme US", "Acme JP"]) await expect(accounts.getByRole("checkbox", { name: new RegExp(name) })).not.toBeChecked();
  const pages = choice.getByRole("group", { name: "Which Page do the ads publish as?" });
  await expect(pages.getByRole("radio", { name: /Acme Brand/ })).toBeChecked();
  await expect(pages.getByRole("radio", { name: /Acme Shop/ })).not.toBeChecked();
  await expectNoAxeViolations(page);

  await accounts.getByRole("checkbox", { name: /Acme EU/ }).check();
  await accounts.getByRole("checkbox", { name: /Acme JP/ }).check();
  await pages.getByRole("radio", { name: /Acme Shop/ }).check();
  await choice.getByRole("button", { name: "Connect selected" }).click();

  await expect(page.getByText("Connected 2 ad accounts.")).toBeVisible();
  await expect(choice).toHaveCount(0);
  const table = page.getByRole("table", { name: "Platform A ad accounts" });
  // By the whole id: the sandbox account's random id (act_ and 15 digits) can begin with the same digits.
  const accountRow = (id: string) => table.getByRole("row").filter({ has: page.getByText(id, { exact: true }) });
  const eu = accountRow("act_111");
  const jp = accountRow("act_333");
  for (const row of [eu, jp]) {
    await expect(row).toContainText("Live");
    await expect(row).toContainText("Active");
    await expect(row).toContainText("Page 9002");
  }
  await expect(accountRow("act_222")).toHaveCount(0);

  // Change Page: the Pages the account's token may publish as (list_ad_account_pages), then set_ad_account_page.
  await eu.getByRole("button", { name: "Change Page of Acme EU" }).click();
  const select = eu.getByLabel("Page for Acme EU");
  await expect(select).toHaveValue("9002");
  await expect(select.getByRole("option")).toHaveText(["Acme Brand", "Acme Shop"]);
  await expectNoAxeViolations(page);
  await select.selectOption({ label: "Acme Brand" });
  await eu.getByRole("button", { name: "Save Page" }).click();
  await expect(page.getByText("Acme EU now publishes as Acme Brand.")).toBeVisible();
  await expect(eu).toContainText("Page 9001");
  await expect(jp).toContainText("Page 9002");
  await expectNoAxeViolations(page);
});

liveTest("connect choice: TikTok with two advertisers, pick one; at 390 px", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signUp(page, { workspace: "Phone Choice Co" });
  await page.goto("/dashboard/settings/ad-accounts");

  await page.getByRole("link", { name: "Connect Platform B account" }).click();
  await expect(page).toHaveURL(/[?&]choose=adgrant_/);
  const choice = page.getByRole("form", { name: "Choose what to connect from TikTok" });
  const advertisers = choice.getByRole("group", { name: "Which advertiser accounts?" });
  await expect(advertisers.getByRole("checkbox")).toHaveCount(2);
  await expect(choice.getByRole("group", { name: /Which Page/ })).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);

  await advertisers.getByRole("checkbox", { name: /Acme TikTok Two/ }).check();
  await choice.getByRole("button", { name: "Connect selected" }).click();
  await expect(page.getByText("Connected 1 ad account.")).toBeVisible();
  const table = page.getByRole("table", { name: "Platform B ad accounts" });
  await expect(table.getByRole("row").filter({ hasText: "7100000000000000002" })).toContainText("Live");
  await expect(table.getByRole("row").filter({ hasText: "7100000000000000001" })).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);
});
