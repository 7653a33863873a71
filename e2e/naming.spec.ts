import { expect, signUp, test } from "./support/fixtures";
import { expectNoAxeViolations, expectNoSidewaysScroll } from "./support/pages";

// The refused pattern is a 400 on purpose; the browser logs it.
test.use({ allowConsole: [/^Failed to load resource: the server responded with a status of 400 \(Bad Request\)$/] });

test("naming settings: a pattern is refused with its reason, saved, previewed on a file name, and cleared; phone width too", async ({ page }) => {
  await signUp(page, { workspace: "Naming Co" });
  await page.getByRole("link", { name: "Naming" }).click();
  await expect(page.getByRole("heading", { name: "Naming", level: 1 })).toBeVisible();
  await expectNoAxeViolations(page);

  const pattern = page.getByLabel("File-name pattern");
  await pattern.fill("{concept}{hook}");
  await page.getByRole("button", { name: "Save pattern" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "need text between them" })).toBeVisible();

  await pattern.fill("{concept}_{hook}_{aspect}");
  await page.getByLabel("Try a file name").fill("spring_hookA_9:16.mp4");
  await page.getByRole("button", { name: "Save pattern" }).click();
  await expect(page.getByText("Pattern saved.")).toBeVisible();
  const example = page.getByTestId("naming-example");
  await expect(example).toContainText("concept");
  await expect(example).toContainText("spring");
  await expect(example).toContainText("9x16");
  await expectNoAxeViolations(page);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByLabel("File-name pattern")).toHaveValue("{concept}_{hook}_{aspect}");
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Clear pattern" }).click();
  await expect(page.getByText("Pattern cleared.")).toBeVisible();
  await expect(page.getByLabel("File-name pattern")).toHaveValue("");
});
