import { createHash, randomBytes } from "node:crypto";
import { expect, signUp, subscribeToPro, test } from "./support/fixtures";
import { expectNoAxeViolations, expectNoSidewaysScroll, PHONE } from "./support/pages";

const REDIRECT = "http://127.0.0.1:9/callback";

test("an assistant's OAuth consent at phone width: sign-in first, workspace and scopes chosen, Allow returns a code with state", async ({ page, browser }) => {
  const { email, password } = await signUp(page, { workspace: "Consent Co" });
  // On the trial, the layout's trial banner sits outside any landmark (axe "region"); pages are checked on Pro, as in dashboard-everywhere.
  await subscribeToPro(page);
  const client = await (await page.request.post("/api/oauth/register", { data: { client_name: "E2E assistant", redirect_uris: [REDIRECT] } })).json();
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const query = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    scope: "upload edit",
    state: "e2e-state",
  });
  // The client's redirect URI: the browser lands there with the code.
  await page.route(`${REDIRECT}**`, (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<title>Back in the app</title><p>Connected</p>" }),
  );

  await page.setViewportSize(PHONE);
  await page.goto(`/api/oauth/authorize?${query}`);
  await expect(page).toHaveURL(/\/dashboard\/oauth\/consent\?/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Connect E2E assistant");
  await expect(page.getByRole("radio", { name: /Consent Co/ })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: /^upload / })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: /^edit / })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: /^delete / })).not.toBeChecked();
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);

  await page.getByRole("checkbox", { name: /^edit / }).uncheck();
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL(/127\.0\.0\.1:9\/callback/);
  const back = new URL(page.url());
  expect(back.searchParams.get("state")).toBe("e2e-state");
  const code = back.searchParams.get("code")!;
  expect(code).toMatch(/^adlac_/);

  // The code carries exactly the scope left checked.
  const tokens = await (
    await page.request.post("/api/oauth/token", {
      form: { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: client.client_id },
    })
  ).json();
  expect(tokens.scope).toBe("upload");

  // Signed out (another browser): the authorization URL asks for sign-in first, then shows the consent.
  const other = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport: PHONE });
  const phone = await other.newPage();
  await phone.goto(`/api/oauth/authorize?${query}`);
  await expect(phone).toHaveURL(/\/sign-in\?callbackUrl=/);
  await phone.getByLabel("Email").fill(email);
  await phone.getByLabel("Password").fill(password);
  await phone.getByRole("button", { name: "Sign in" }).click();
  await expect(phone.getByRole("heading", { level: 1 })).toHaveText("Connect E2E assistant");
  await other.close();

  await page.goto("/dashboard/settings/api-keys");
  const row = page.getByTestId("connected-app-row");
  await expect(row).toContainText("E2E assistant");
  await row.getByRole("button", { name: "Revoke E2E assistant" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke access" }).click();
  await expect(page.getByText("No connected apps")).toBeVisible();
});
