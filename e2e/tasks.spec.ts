import { admin, expect, screenshot, signUp, subscribeToPro, test, uniqueEmail, workspaceIdOf } from "./support/fixtures";
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE } from "./support/pages";
import { firstTaskDueTomorrow } from "./support/tasks";
import { adFor, callTool, readyCreative } from "./support/tools";

test("plan work as tasks: a list, a task assigned with a due date, a comment, the board; and the same page at phone width", async ({ page }) => {
  await signUp(page, { name: "Tara Tasks", workspace: "Task Force" });
  await page.goto("/dashboard/tasks");
  await expect(page.getByRole("heading", { name: "Tasks", level: 1 })).toBeVisible();

  const card = await firstTaskDueTomorrow(page, { list: "Spring launch", title: "Cut the 15 second edit", assignee: "Tara Tasks" });
  await expect(card).toContainText("Due tomorrow");
  await expect(card).toContainText("Tara Tasks");
  await card.getByRole("button", { name: "Cut the 15 second edit" }).click();
  await expect(page).toHaveURL(/\?task=task_/);

  const detail = page.getByRole("region", { name: "Cut the 15 second edit" });
  await detail.getByLabel("Add a comment").fill("Rough cut is in the library");
  await detail.getByRole("button", { name: "Comment" }).click();
  await expect(detail.getByText("Rough cut is in the library")).toBeVisible();
  await expect(card).toContainText("1 comment");

  // A deep link to the task opens it again.
  const link = page.url();
  await page.goto(link);
  await expect(page.getByRole("region", { name: "Cut the 15 second edit" })).toBeVisible();

  await page.getByRole("button", { name: "Board" }).click();
  const done = page.getByRole("region", { name: /^Done/ });
  await expect(done).not.toContainText("Cut the 15 second edit");
  await page.getByLabel("Move Cut the 15 second edit").selectOption("done");
  await expect(done).toContainText("Cut the 15 second edit");
  await page.getByRole("button", { name: "List", exact: true }).click();
  await page.getByLabel("Assignee").selectOption("me");
  await expect(page.getByRole("list", { name: "Tasks" })).toContainText("Cut the 15 second edit");
  await screenshot(page, "tasks");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/dashboard/tasks?view=board");
  await expect(page.getByRole("region", { name: /^Done/ })).toContainText("Cut the 15 second edit");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "the page scrolls sideways at 390 px").toBeLessThanOrEqual(0);
  await screenshot(page, "tasks-phone");
});

test("the new-task form clears after adding; a task links to a creative and an ad; viewers are not offered as assignees; at 1440 px and 390 px, axe clean", async ({
  page,
}) => {
  await signUp(page, { name: "Lina Links", workspace: "Linked Work" });
  await subscribeToPro(page);
  const workspaceId = await workspaceIdOf(page);
  const viewerEmail = uniqueEmail("task-viewer");
  await admin(["member", "add", "--workspace", workspaceId, "--email", viewerEmail, "--role", "viewer"]);
  const creativeId = await readyCreative(page, "task-hero.png");
  const ad = await adFor(page, creativeId, { campaign: "Task campaign", adSet: "Task set", ad: "Hero ad" });
  await callTool(page, "create_task_list", { name: "Launch" });

  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.goto("/dashboard/tasks");
    const form = page.getByRole("form", { name: "New task" });
    // Only roles that can complete a task are offered.
    await expect(form.getByLabel("Lina Links")).toBeVisible();
    await expect(form.getByText(viewerEmail)).toHaveCount(0);
    const title = viewport === DESKTOP ? "Check the hero creative" : "Check the hero ad";
    await form.getByLabel("New task").fill(title);
    await form.getByLabel("Description").fill("Before Friday");
    await form.getByLabel("Lina Links").check();
    await form.getByLabel("Link to").selectOption(viewport === DESKTOP ? `creative:${creativeId}` : `ad:${ad.id}`);
    await form.getByRole("button", { name: "Add task" }).click();
    const card = page.getByRole("list", { name: "Tasks" }).getByRole("listitem").filter({ hasText: title });
    await expect(card).toBeVisible();
    // The form is empty again, ready for the next task.
    await expect(form.getByLabel("New task")).toHaveValue("");
    await expect(form.getByLabel("Description")).toHaveValue("");
    await expect(form.getByLabel("Link to")).toHaveValue("");
    await expect(form.getByLabel("Lina Links")).not.toBeChecked();

    await card.getByRole("button", { name: title }).click();
    const detail = page.getByRole("region", { name: title });
    const links = detail.getByTestId("task-link");
    await expect(links).toHaveCount(1);
    await expect(links.first()).toContainText(viewport === DESKTOP ? "task-hero.png" : "Hero ad");
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    if (viewport === DESKTOP) {
      // Add the ad from the detail, then follow the creative link.
      await detail.getByLabel("Creative or ad to link").selectOption(`ad:${ad.id}`);
      await detail.getByRole("button", { name: "Add link" }).click();
      await expect(links).toHaveCount(2);
      const { task } = await callTool(page, "get_task", { id: new URL(page.url()).searchParams.get("task")! });
      expect(task.links).toEqual([
        { kind: "creative", id: creativeId },
        { kind: "ad", id: ad.id },
      ]);
      await screenshot(page, "task-links");
      await detail.getByRole("link", { name: "task-hero.png" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("task-hero.png");
    } else {
      await screenshot(page, "task-links-phone");
    }
  }
});
