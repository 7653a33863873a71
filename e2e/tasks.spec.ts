import { expect, screenshot, signUp, test } from "./support/fixtures";
import { firstTaskDueTomorrow } from "./support/tasks";

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
