import { admin, expect, signUp, subscribeToPro, test, workspaceIdOf } from "./support/fixtures";
import { expectNoAxeViolations } from "./support/pages";
import { firstTaskDueTomorrow } from "./support/tasks";
import { adFor, readyCreative } from "./support/tools";
import { paced } from "../scripts/test-pace.mjs";

/** Issue 15's journey in one sitting: a task assigned and discussed, an ad comment hidden, the leads exported. */
test("assign a task with a due date, comment on it, hide an ad comment from the inbox, export leads as CSV", async ({ page }) => {
  test.setTimeout(paced(240_000));
  await signUp(page, { name: "Robin Round", workspace: "Round Trip" });
  await subscribeToPro(page);
  const workspaceId = await workspaceIdOf(page);

  // A task for tomorrow, assigned and commented on.
  await page.getByRole("link", { name: "Tasks", exact: true }).click();
  const card = await firstTaskDueTomorrow(page, { list: "Launch week", title: "Clean up the comments on the spring ad", assignee: "Robin Round" });
  await expect(card).toContainText("Due tomorrow");
  await expect(card).toContainText("Robin Round");
  await card.getByRole("button", { name: "Clean up the comments on the spring ad" }).click();
  const detail = page.getByRole("region", { name: "Clean up the comments on the spring ad" });
  await detail.getByLabel("Add a comment").fill("Starting with the spam one");
  await detail.getByRole("button", { name: "Comment" }).click();
  await expect(card).toContainText("1 comment");

  // Someone spams the published ad; the pull brings it to the inbox, where it is hidden, on the platform too.
  const ad = await adFor(page, await readyCreative(page, "spring.png"), { campaign: "Spring", adSet: "US", ad: "Spring hero" });
  await admin(["sandbox", "comment", "--workspace", workspaceId, "--ad", ad.externalId, "--message", "Cheap followers at my profile", "--author", "Spam Bot"]);
  await admin(["sandbox", "comment", "--workspace", workspaceId, "--ad", ad.externalId, "--message", "Love these colours", "--author", "Pat Person"]);
  await admin(["sandbox", "advance", "--workspace", workspaceId, "--hours", "1"]);
  await admin(["moderation", "pull", "--workspace", workspaceId]);
  await page.getByRole("link", { name: "Moderation", exact: true }).click();
  const inbox = page.getByRole("list", { name: "Comments" });
  await inbox.getByRole("listitem").filter({ hasText: "Cheap followers" }).getByRole("button", { name: "Hide", exact: true }).click();
  await expect(page.getByText("Hidden: 1 comment.")).toBeVisible();
  await expect(inbox.getByRole("listitem").filter({ hasText: "Love these colours" })).toBeVisible();
  const onPlatform = await admin<{ comments: { message: string; hidden: boolean }[] }>(["sandbox", "comments", "--workspace", workspaceId]);
  expect(onPlatform.comments.map((c) => [c.message, c.hidden]).sort()).toEqual([
    ["Cheap followers at my profile", true],
    ["Love these colours", false],
  ]);

  // Two people fill in a lead form; the Leads page pulls them and exports them as CSV.
  await admin(["sandbox", "leads", "--workspace", workspaceId, "--count", "2"]);
  await page.getByRole("link", { name: "Leads", exact: true }).click();
  await page.getByRole("button", { name: "Check for new leads" }).click();
  await expect(page.getByRole("table", { name: /Leads of all forms/ }).getByRole("row")).toHaveCount(3);
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const chunks: Buffer[] = [];
  for await (const chunk of (await (await downloading).createReadStream())!) chunks.push(chunk as Buffer);
  const lines = Buffer.concat(chunks)
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
  expect(lines[0]).toMatch(/^lead_id,submitted_at,form_id,form_name,/);
  expect(lines).toHaveLength(3);
  await expectNoAxeViolations(page);

  // The task is still there to close out.
  await page.getByRole("link", { name: "Tasks", exact: true }).click();
  await expect(page.getByRole("list", { name: "Tasks" })).toContainText("1 comment");
});
