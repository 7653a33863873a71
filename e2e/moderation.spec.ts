import { admin, expect, screenshot, signUp, subscribeToPro, test, workspaceIdOf } from "./support/fixtures";
import { expectNoAxeViolations } from "./support/pages";
import { adFor, readyCreative } from "./support/tools";

test("hide an ad comment from the moderation inbox, see it on the Hidden tab with its history; add a keyword rule; phone width", async ({ page }) => {
  await signUp(page, { name: "Mo Moderator", workspace: "Comment Desk" });
  await subscribeToPro(page);
  const workspaceId = await workspaceIdOf(page);
  const ad = await adFor(page, await readyCreative(page, `moderated-${Date.now()}.png`, 400), { campaign: "Moderated", adSet: "Set" });
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
  await expectNoAxeViolations(page);
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
  await expectNoAxeViolations(page);
  await screenshot(page, "moderation-phone");
});
