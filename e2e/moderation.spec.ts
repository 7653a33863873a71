import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { pngImage } from "../tests/helpers/media-fixtures";
import { admin, expect, screenshot, signUp, switchToPro, test, uniqueEmail } from "./support/fixtures";

async function expectAccessible(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).include("#main").analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** Calls a tool over REST with an API key; fails loudly on anything but 200. */
async function tool(key: string, name: string, args: Record<string, unknown>): Promise<any> {
  const res = await fetch(`${process.env.E2E_BASE_URL}/api/v1/tools/${name}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify(args),
  });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`${name} answered ${res.status}: ${JSON.stringify(body)}`);
  return body.result;
}

/** A paused ad on platform A, made through the tools with a member's key. */
async function publishedAd(workspaceId: string): Promise<{ externalId: string }> {
  const { userId } = await admin(["member", "add", "--workspace", workspaceId, "--email", uniqueEmail("builder"), "--role", "admin"]);
  const { key } = await admin(["key", "create", "--workspace", workspaceId, "--user", userId!]);
  const fileName = `moderated-${Date.now()}.png`;
  const { uploads } = await tool(key!, "create_upload", {
    files: [{ fileName, contentBase64: (await pngImage(400, 400)).toString("base64"), contentType: "image/png" }],
    platform: "platform_a",
  });
  await expect.poll(async () => (await tool(key!, "get_upload", { id: uploads[0].id })).upload.status, { timeout: 60_000 }).toBe("completed");
  let creativeId = "";
  await expect
    .poll(async () => {
      const c = (await tool(key!, "list_creatives", { limit: 50 })).creatives.find((x: any) => x.fileName === fileName);
      creativeId = c?.id ?? "";
      return c?.status;
    }, { timeout: 60_000 })
    .toBe("ready");
  const { id: copyVariantId } = await tool(key!, "create_copy_variant", { creativeId, headline: "Fresh picks", primaryText: "Shop the new season", label: "Main" });
  const { campaign } = await tool(key!, "create_campaign", { platform: "platform_a", name: "Moderated", objective: "sales" });
  const { adSet } = await tool(key!, "create_ad_set", { campaignId: campaign.id, platform: "platform_a", name: "Set", budget: { type: "daily", amountMinor: 5000 }, targetCountries: ["US"] });
  const { ad } = await tool(key!, "create_ad", { adSetId: adSet.id, creativeId, copyVariantId, callToAction: "shop_now", landingUrl: "https://example.com/shop" });
  return ad;
}

test("hide an ad comment from the moderation inbox, see it on the Hidden tab with its history; add a keyword rule; phone width", async ({ page }) => {
  await signUp(page, { name: "Mo Moderator", workspace: "Comment Desk" });
  await switchToPro(page);
  const workspaceId = (await page.getByTestId("workspace-id").textContent())!.trim();
  const ad = await publishedAd(workspaceId);
  for (const message of ["Where can I buy this?", "Check my profile for cheap followers"]) {
    await admin(["sandbox", "comment", "--workspace", workspaceId, "--ad", ad.externalId, "--message", message, "--author", "Pat Person"]);
  }
  await admin(["sandbox", "advance", "--workspace", workspaceId, "--hours", "1"]);
  await admin(["moderation", "pull", "--workspace", workspaceId]);

  await page.getByRole("link", { name: "Moderation", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Moderation", level: 1 })).toBeVisible();
  const inbox = page.getByRole("list", { name: "Comments" });
  const spam = inbox.getByRole("listitem").filter({ hasText: "cheap followers" });
  await expect(spam).toContainText("New");
  await expectAccessible(page);
  await screenshot(page, "moderation");

  await spam.getByRole("button", { name: "Hide", exact: true }).click();
  await expect(page.getByText("Hidden: 1 comment.")).toBeVisible();
  // The New tab no longer lists it; the Hidden tab does, with who hid it.
  await expect(inbox.getByRole("listitem").filter({ hasText: "cheap followers" })).toHaveCount(0);
  await expect(inbox.getByRole("listitem").filter({ hasText: "Where can I buy this?" })).toBeVisible();
  await page.getByRole("button", { name: "Hidden", exact: true }).click();
  const hidden = inbox.getByRole("listitem").filter({ hasText: "cheap followers" });
  await expect(hidden).toContainText("Hidden");
  await hidden.getByRole("button", { name: "History" }).click();
  await expect(hidden.getByRole("list", { name: "History" })).toContainText("hide by a member in the dashboard");
  const onPlatform = await admin<{ comments: { message: string; hidden: boolean }[] }>(["sandbox", "comments", "--workspace", workspaceId]);
  expect(onPlatform.comments.find((c) => c.message.includes("cheap followers"))?.hidden).toBe(true);

  // Reply inline on the other comment.
  await page.getByRole("button", { name: "New", exact: true }).click();
  const question = inbox.getByRole("listitem").filter({ hasText: "Where can I buy this?" });
  await question.getByRole("button", { name: "Reply" }).click();
  await question.getByLabel("Reply as your page").fill("On our shop, link in the ad!");
  await question.getByRole("button", { name: "Send reply" }).click();
  await page.getByRole("button", { name: "Replied", exact: true }).click();
  await expect(inbox.getByRole("listitem").filter({ hasText: "Where can I buy this?" })).toContainText("On our shop, link in the ad!");

  await page.getByLabel("Keyword or phrase").fill("Cheap followers");
  await page.getByRole("button", { name: "Add rule" }).click();
  await expect(page.getByRole("list", { name: "Keyword rules" })).toContainText("Cheap followers");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "All", exact: true }).click();
  await expect(inbox.getByRole("listitem")).toHaveCount(2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await screenshot(page, "moderation-phone");
});
