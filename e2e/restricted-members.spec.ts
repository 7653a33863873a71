import { admin, expect, PASSWORD, signUp, subscribeToPro, test, uniqueEmail, workspaceIdOf } from "./support/fixtures";
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE } from "./support/pages";
import { callTool, readyCreative } from "./support/tools";

/** A viewer sees every control they cannot use disabled, each pointing at the sentence that says why. */
test("a viewer meets disabled controls with their reasons on Ads, Rules and the creative page, at 1440 px and 390 px, axe clean", async ({ page, browser }) => {
  await signUp(page, { workspace: "Clear Roles" });
  await subscribeToPro(page);
  const workspaceId = await workspaceIdOf(page);
  const creativeId = await readyCreative(page, "restricted.png");
  await callTool(page, "create_copy_variant", { creativeId, headline: "Read only", label: "Main" });
  await callTool(page, "create_campaign", { platform: "platform_a", name: "Viewer campaign", objective: "sales" });

  const viewerEmail = uniqueEmail("viewer");
  await admin(["member", "add", "--workspace", workspaceId, "--email", viewerEmail, "--role", "viewer"]);
  await admin(["user", "password", "--email", viewerEmail, "--password", PASSWORD]);
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const viewer = await context.newPage();
  await viewer.goto("/dashboard/ads");
  await viewer.getByLabel("Email").fill(viewerEmail);
  await viewer.getByLabel("Password").fill(PASSWORD);
  await viewer.getByRole("button", { name: "Sign in" }).click();
  await expect(viewer).toHaveURL(/\/dashboard\/ads$/);

  const describedBy = async (name: string | RegExp, reason: string) => {
    const control = viewer.getByRole("button", { name }).first();
    await expect(control).toBeDisabled();
    await expect(control).toHaveAttribute("aria-describedby", reason);
    await expect(viewer.locator(`#${reason}`)).toBeVisible();
  };

  for (const viewport of [DESKTOP, PHONE]) {
    await viewer.setViewportSize(viewport);
    await viewer.goto("/dashboard/ads");
    await expect(viewer.getByTestId("ads-disabled-reasons")).toContainText('needs "ads.write"');
    await expect(viewer.getByTestId("ads-disabled-reasons")).toContainText('needs "ads.launch"');
    await describedBy("Create campaign", "ads-write-reason");
    await expect(viewer.getByLabel("New campaign name")).toBeDisabled();
    await describedBy("Activate campaign", "ads-launch-reason");
    await expectNoSidewaysScroll(viewer);
    await expectNoAxeViolations(viewer);

    await viewer.goto("/dashboard/performance/rules");
    await expect(viewer.getByTestId("rules-disabled-reason")).toContainText('needs "rules.manage"');
    await describedBy("New rule", "rules-reason");
    await expectNoSidewaysScroll(viewer);
    await expectNoAxeViolations(viewer);

    await viewer.goto(`/dashboard/library/${creativeId}`);
    await expect(viewer.getByTestId("copy-disabled-reason")).toBeVisible();
    await describedBy("Add variant", "copy-reason");
    await describedBy("Save changes", "copy-reason");
    await describedBy("Approve", "approve-reason");
    await describedBy("Request changes", "approve-reason");
    await expect(viewer.getByTestId("review-disabled-reasons")).toContainText('needs "review.share"');
    await expectNoSidewaysScroll(viewer);
    await expectNoAxeViolations(viewer);
  }
  await context.close();
});
