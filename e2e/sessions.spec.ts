import { expect, signUp, test } from "./support/fixtures";

test("sign out everywhere ends this session and the one in another browser; pages run under the nonce CSP", async ({ page, browser }) => {
  const { email, password } = await signUp(page);

  // The same account signed in from a second browser.
  const other = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const phone = await other.newPage();
  await phone.goto("/sign-in");
  await phone.getByLabel("Email").fill(email);
  await phone.getByLabel("Password").fill(password);
  await phone.getByRole("button", { name: "Sign in" }).click();
  await expect(phone).toHaveURL(/\/dashboard/);

  // Narrow screen: the section and its button are there and usable.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/dashboard/settings/security");
  const csp = (await page.request.get("/dashboard/settings/security")).headers()["content-security-policy"];
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  await expect(page.getByRole("heading", { name: "Sessions" })).toBeVisible();
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page).toHaveURL(/\/sign-in/);

  await phone.goto("/dashboard/library");
  await expect(phone).toHaveURL(/\/sign-in/);
  await other.close();

  // Signing in again works.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard/);
});
