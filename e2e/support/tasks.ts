import type { Locator, Page } from "@playwright/test";

/** On the Tasks page of a workspace without lists: makes a list and adds a task due tomorrow for the assignee; the task's card. */
export async function firstTaskDueTomorrow(page: Page, task: { list: string; title: string; assignee: string }): Promise<Locator> {
  await page.getByLabel("Create your first list").fill(task.list);
  await page.getByRole("button", { name: "Create list" }).click();
  const tomorrow = await page.evaluate(() => {
    const d = new Date();
    d.setDate(d.getDate() + 1);
    return d.toLocaleDateString("en-CA");
  });
  const newTask = page.getByRole("form", { name: "New task" });
  await newTask.getByLabel("New task").fill(task.title);
  await newTask.getByLabel("Due date").fill(tomorrow);
  await newTask.getByLabel(task.assignee).check();
  await newTask.getByRole("button", { name: "Add task" }).click();
  return page.getByRole("list", { name: "Tasks" }).getByRole("listitem").filter({ hasText: task.title });
}
