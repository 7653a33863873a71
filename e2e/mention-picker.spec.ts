import { admin, expect, signUp, subscribeToPro, test, workspaceIdOf } from "./support/fixtures";
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE } from "./support/pages";
import { callTool as tool, readyCreative } from "./support/tools";

test("typing @ in a review comment offers the workspace's members; arrows, Enter and Escape work, at phone and desktop width", async ({ page }) => {
  await signUp(page, { name: "Olivia Owner", workspace: "Mentions Team" });
  await subscribeToPro(page);
  const workspaceId = await workspaceIdOf(page);
  const stamp = Date.now();
  // Members added by email are named after their address's local part.
  const rita = `rita-${stamp}`;
  const rob = `rob-${stamp}`;
  for (const name of [rita, rob]) await admin(["member", "add", "--workspace", workspaceId, "--email", `${name}@example.com`, "--role", "editor"]);
  const creativeId = await readyCreative(page, "mention.png", 600);

  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.goto(`/dashboard/library/${creativeId}`);
    const box = page.getByLabel("New comment");
    const options = page.getByRole("listbox", { name: "Members to mention" });
    await box.fill("");
    await box.pressSequentially("Please check @r");
    await expect(options.getByRole("option")).toHaveText([rita, rob]);
    await expect(options.getByRole("option", { name: rita })).toHaveAttribute("aria-selected", "true");
    await expect(box).toHaveAttribute("aria-activedescendant", (await options.getByRole("option").first().getAttribute("id"))!);
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    await box.press("ArrowDown");
    await expect(options.getByRole("option", { name: rob })).toHaveAttribute("aria-selected", "true");
    await box.press("ArrowUp");
    await expect(options.getByRole("option", { name: rita })).toHaveAttribute("aria-selected", "true");
    await box.press("Escape");
    await expect(options).toBeHidden();
    await expect(box).toHaveValue("Please check @r");

    await box.pressSequentially("o");
    await expect(options.getByRole("option")).toHaveText([rob]);
    await box.press("Enter");
    await expect(options).toBeHidden();
    await expect(box).toHaveValue(`Please check @${rob} `);
  }

  await page.getByLabel("New comment").pressSequentially("the crop");
  await page.getByRole("button", { name: "Comment", exact: true }).click();
  await expect(page.getByText(`Please check @${rob} the crop`)).toBeVisible();
  // The thread shows as soon as it is sent; the tool reads what the server stored, which may land a moment later.
  await expect
    .poll(async () => ((await tool(page, "list_comments", { creativeId })).threads as { body: string }[]).map((t) => t.body))
    .toEqual([`Please check @${rob} the crop`]);
});
