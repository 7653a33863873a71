import { admin, expect, screenshot, signUp, subscribeToPro, test, workspaceIdOf } from "./support/fixtures";
import { expectNoAxeViolations, expectNoSidewaysScroll } from "./support/pages";

test("leads: submissions of a lead form pulled in, shown with their fields, exported as CSV; the same page at phone width", async ({ page }) => {
  await signUp(page, { workspace: "Lead Gen" });
  await subscribeToPro(page);
  const workspaceId = await workspaceIdOf(page);

  await page.goto("/dashboard/leads");
  await expect(page.getByRole("heading", { name: "Leads", level: 1 })).toBeVisible();
  const forms = page.getByRole("navigation", { name: "Lead forms" });
  await expect(forms.getByRole("link", { name: /Request a quote/ })).toBeVisible();

  // Three people fill in the quote form on the (sandbox) platform; one of them types a comma and quotes.
  const { formId: formExternalId } = await admin<{ formId: string }>(["sandbox", "leads", "--workspace", workspaceId, "--count", "2"]);
  expect(formExternalId).toMatch(/^\d+$/);
  await admin(["sandbox", "leads", "--workspace", workspaceId, "--count", "1", "--fields", JSON.stringify({ full_name: 'Zoë "Z" Quinn, Jr.' })]);

  await page.getByRole("button", { name: "Check for new leads" }).click();
  const table = page.getByRole("table", { name: /Leads of all forms/ });
  await expect(table.getByRole("row")).toHaveCount(4);
  await expect(table).toContainText('Zoë "Z" Quinn, Jr.');
  await expect(forms.getByRole("link", { name: /Newsletter sign-up \(3\)/ })).toBeVisible();

  await forms.getByRole("link", { name: /Newsletter sign-up/ }).click();
  await expect(page).toHaveURL(/\?form=lf_/);
  await expect(page.getByRole("table", { name: /Leads of Newsletter sign-up/ }).getByRole("row")).toHaveCount(4);

  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("leads-newsletter-sign-up.csv");
  const chunks: Buffer[] = [];
  for await (const chunk of (await download.createReadStream())!) chunks.push(chunk as Buffer);
  const csv = Buffer.concat(chunks)
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toBe("lead_id,submitted_at,form_id,form_name,ad_id,ad_name,ad_external_id,platform_lead_id,full_name,email");
  expect(lines).toHaveLength(4);
  expect(csv).toContain('"Zoë ""Z"" Quinn, Jr."');
  await expectNoAxeViolations(page);
  await screenshot(page, "leads");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole("table", { name: /Leads of Newsletter sign-up/ })).toContainText('Zoë "Z" Quinn, Jr.');
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);
  await screenshot(page, "leads-phone");
});
