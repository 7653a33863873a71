import { totpCode } from "../lib/session/totp";
import { expect, screenshot, signUp, test } from "./support/fixtures";
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE } from "./support/pages";

test("enable two-factor with a TOTP code, then sign in with password and code (and a recovery code); the Security page lists it all", async ({ page }) => {
  const { email, password } = await signUp(page);
  await page.getByRole("link", { name: "Security" }).click();
  await expect(page.getByTestId("two-factor-status")).toHaveText("Off");
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  await expect(page.getByRole("img", { name: /QR code/ })).toBeVisible();
  await screenshot(page, "two-factor-enrol");
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();

  await page.getByLabel("Code from the app").fill("000000" === totpCode(secret) ? "111111" : "000000");
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByText(/did not match/)).toBeVisible();

  await page.getByLabel("Code from the app").fill(totpCode(secret));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByTestId("recovery-codes").locator("li")).toHaveCount(10);
  const codes = (await page.getByTestId("recovery-codes").locator("li").allTextContents()).map((c) => c.trim());
  expect(codes).toHaveLength(10);
  await page.reload();
  await expect(page.getByTestId("two-factor-status")).toHaveText("On");

  // Password alone is not enough any more.
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByLabel("Authentication code")).toBeVisible();
  await page.getByLabel("Authentication code").fill("123456" === totpCode(secret) ? "654321" : "123456");
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page.getByText(/did not match/)).toBeVisible();
  const used = totpCode(secret);
  await page.getByLabel("Authentication code").fill(used);
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard/);

  // A code signs in once: replaying it (even within its 30 s window) is refused.
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByLabel("Authentication code").fill(used);
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page.getByText(/did not match/)).toBeVisible();
  await page.goto("/sign-in");

  // A recovery code works once.
  for (const attempt of [1, 2]) {
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByLabel("Authentication code").fill(codes[0]!);
    await page.getByRole("button", { name: "Verify and sign in" }).click();
    if (attempt === 1) {
      await expect(page).toHaveURL(/\/dashboard/);
      await page.getByRole("button", { name: "Sign out", exact: true }).click();
    } else {
      await expect(page.getByText(/did not match/)).toBeVisible();
    }
  }

  // The Security page lists what happened, newest first, with the time, the address and the browser; readable at phone
  // width and on a desktop, and accessible.
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByLabel("Authentication code").fill(codes[1]!);
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await page.goto("/dashboard/settings/security");
  const activity = page.getByTestId("security-activity").locator("li");
  await expect(activity.locator("p:first-child")).toHaveText([
    "Signed in with password and a recovery code",
    "Recovery code used",
    "Signed in with password and a recovery code",
    "Recovery code used",
    "Signed in with password and authenticator code",
    "Two-factor authentication turned on",
    "Signed in with password",
  ]);
  await expect(activity.first()).toContainText(/\d\d:\d\d:\d\d .* · 127\.0\.0\.1 · Chrome on Linux/);
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
  }
});
