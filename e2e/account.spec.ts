import { admin, expect, screenshot, signUp, subscribeToPro, switchToPro, test } from "./support/fixtures";
import { formatDate } from "../components/dashboard/format";
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE } from "./support/pages";
import { callTool } from "./support/tools";

test("sign up on the trial, switch to Pro, create a key, call /api/v1/me with it, revoke it", async ({ page, request, baseURL }) => {
  const { email } = await signUp(page, { name: "Olivia Owner", workspace: "Acme Ads" });
  await expect(page.getByText("Free trial:")).toBeVisible();
  await screenshot(page, "library-empty");

  // The trial covers the dashboard only: key creation is refused until the plan is Pro.
  await page.getByRole("link", { name: "API keys" }).click();
  await expect(page.getByText("API keys need the Pro plan")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create key" })).toBeDisabled();

  await page.goto("/dashboard/settings/plan");
  await expect(page.getByTestId("plan-state")).toHaveText("Free trial");
  await screenshot(page, "plan-trial");
  await switchToPro(page);
  await expect(page.getByText("Free trial:")).toHaveCount(0);

  await page.goto("/dashboard/settings/api-keys");
  await page.getByLabel("Name").fill("Reporting script");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-api-key").textContent())!.trim();
  expect(key).toMatch(/^adl_[0-9A-Za-z]{32}$/);
  await expect(page.getByTestId("api-key-row")).toHaveCount(1);
  await expect(page.getByTestId("api-key-row")).toContainText("Reporting script");
  await expect(page.getByTestId("api-key-row")).toContainText("full access");

  // A scoped key, limited to what an owner may grant.
  await page.getByLabel("Name").fill("Uploader");
  await page.getByLabel("Only chosen scopes").check();
  await page.getByRole("checkbox", { name: /^upload/ }).check();
  await page.getByRole("checkbox", { name: /^publish/ }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("api-key-row")).toHaveCount(2);
  await expect(page.getByTestId("api-key-row").first()).toContainText("publish");
  await screenshot(page, "api-keys");

  const me = await request.get(`${baseURL}/api/v1/me`, { headers: { Authorization: `Bearer ${key}` } });
  expect(me.status()).toBe(200);
  const { account } = await me.json();
  expect(account).toMatchObject({ email, name: "Olivia Owner", plan: "pro", trialEndsAt: null, credits: 10000 });

  // The list records the use; revoking takes effect on the next request.
  await page.reload();
  await expect(page.getByTestId("api-key-row").filter({ hasText: "Reporting script" })).not.toContainText("Never");
  await page.getByRole("button", { name: "Revoke Reporting script" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByTestId("api-key-row")).toHaveCount(1);
  const after = await request.get(`${baseURL}/api/v1/me`, { headers: { Authorization: `Bearer ${key}` } });
  expect(after.status()).toBe(401);

  // Cancelling Pro during the trial returns to the rest of the trial: the dashboard stays, API keys answer 402.
  await page.goto("/dashboard/settings/plan");
  await page.getByRole("button", { name: "Cancel Pro plan" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Cancel plan" }).click();
  await expect(page.getByTestId("plan-state")).toHaveText("Free trial");
});

test("sign out, wrong password, sign in again; pages need a session", async ({ page }) => {
  const { email, password } = await signUp(page);
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto("/dashboard/settings/team");
  await expect(page).toHaveURL(/\/sign-in/);

  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("That email and password do not match an account.")).toBeVisible();
  await screenshot(page, "sign-in");

  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Back on the page that was asked for before signing in.
  await expect(page).toHaveURL(/\/dashboard\/settings\/team$/);
  await page.goto("/dashboard/library");
  await expect(page.getByRole("heading", { name: "Library", exact: true })).toBeVisible();

  // Added to a second workspace, the user switches between them; the active one is what pages show.
  const second = await admin(["workspace", "create", "--name", "Second Brand", "--plan", "pro"]);
  await admin(["member", "add", "--workspace", second.workspaceId!, "--email", email, "--role", "admin"]);
  await page.reload();
  await page.getByLabel("Workspace").selectOption({ label: "Second Brand (admin)" });
  await expect(page.getByText("0 creatives in Second Brand")).toBeVisible();
  await page.goto("/dashboard/settings/plan");
  await expect(page.getByTestId("workspace-id")).toHaveText(second.workspaceId!);
  await expect(page.getByTestId("plan-state")).toHaveText("Pro");
});

test("a member's own date format (Europe/Berlin, de-DE) on every page; ad set countries found by name and stored as codes", async ({ page }) => {
  await signUp(page, { workspace: "Berlin Ads" });
  await subscribeToPro(page);
  await page.goto("/dashboard/settings/profile");
  await page.getByLabel("Time zone").selectOption("Europe/Berlin");
  await page.getByLabel("Date format").selectOption("de-DE");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();

  await page.goto("/dashboard/settings/api-keys");
  await page.getByLabel("Name").fill("Reporting script");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("api-key-row")).toHaveCount(1);
  const today = formatDate(new Date().toISOString(), { timeZone: "Europe/Berlin", locale: "de-DE" });
  expect(today).toMatch(/^\d{1,2}\. \S+ \d{4}$/);

  // Platform A's ad set form: a country is searched by name, shown by name, stored as its ISO code.
  await page.goto("/dashboard/ads");
  await page.getByLabel("New campaign name").fill("Berlin launch");
  await page.getByRole("button", { name: "Create campaign" }).click();
  const countries = page.getByLabel("Target countries");
  await countries.fill("Germany");
  await countries.press("Enter");
  const chosen = page.getByRole("list", { name: "Chosen countries" });
  await expect(chosen.getByRole("listitem")).toHaveText([/United States/, /Germany/]);
  await chosen.getByRole("button", { name: "Remove United States" }).click();
  await countries.fill("Atlantis");
  await countries.press("Enter");
  await expect(page.getByText("No country named “Atlantis”")).toBeVisible();
  await countries.fill("");
  await page.getByLabel("New ad set name").fill("German buyers");
  await page.getByRole("button", { name: "Create ad set" }).click();
  await expect(page.locator('[data-testid="ad-set"][data-name="German buyers"]')).toContainText("Countries Germany");
  const { adSets } = await callTool(page, "list_ad_sets", {});
  expect(adSets.map((a: { targetCountries: string[] }) => a.targetCountries)).toEqual([["DE"]]);

  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.goto("/dashboard/settings/api-keys");
    await expect(page.getByTestId("api-key-row")).toContainText(today);
    await expectNoAxeViolations(page);
    await expectNoSidewaysScroll(page);
    await page.goto("/dashboard/settings/team");
    await expect(page.getByText(today).first()).toBeVisible();
    await expectNoAxeViolations(page);
    await expectNoSidewaysScroll(page);
    await page.goto("/dashboard/ads");
    await expect(page.getByLabel("Target countries")).toBeVisible();
    await expectNoAxeViolations(page);
    await expectNoSidewaysScroll(page);
  }
});
