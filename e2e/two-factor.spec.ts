import { totpCode } from "../lib/session/totp";
import { expect, screenshot, signUp, test } from "./support/fixtures";

test("enable two-factor with a TOTP code, then sign in with password and code (and a recovery code)", async ({ page }) => {
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
});
