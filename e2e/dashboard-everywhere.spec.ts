import http from "node:http";
import type { AddressInfo } from "node:net";
import { pngImage } from "../tests/helpers/media-fixtures";
import { admin, expect, PASSWORD, screenshot, signUp, subscribeToPro, switchToPro, test, uniqueEmail, workspaceIdOf } from "./support/fixtures";
import { DASHBOARD_PAGES, DESKTOP, expectNoAxeViolations, GUEST_PAGES, PHONE, visitEveryPage } from "./support/pages";
import { paced } from "../scripts/test-pace.mjs";

/** A webhook receiver answering `status` to everything. */
async function startReceiver(status: number) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify({ ok: status < 300 })));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, close: () => new Promise((r) => server.close(r)) };
}

/** Uploads one PNG through the Uploads page and returns its creative's id once the job completed. */
async function uploadImage(page: import("@playwright/test").Page, name: string): Promise<string> {
  await page.goto("/dashboard/uploads");
  // The job list renders on the client: once it shows, the page is hydrated and the file input is wired.
  await expect(page.getByText("No uploads yet").or(page.getByTestId("upload-row").first())).toBeVisible();
  await page.getByTestId("upload-input").setInputFiles([{ name, mimeType: "image/png", buffer: await pngImage(1200, 628) }]);
  const row = page.locator(`[data-testid="upload-row"][data-file="${name}"]`);
  await expect(row).toHaveAttribute("data-status", "completed", { timeout: paced(60_000) });
  await page.goto("/dashboard/library");
  const href = await page
    .getByRole("link", { name: new RegExp(name.replace(".", "\\.")) })
    .first()
    .getAttribute("href");
  return href!.split("/").pop()!;
}

const screenshotName = (path: string) =>
  path === "/dashboard/library"
    ? "library"
    : path.startsWith("/dashboard/library/cre_does")
      ? null
      : path.startsWith("/dashboard/library/")
        ? "creative"
        : path.startsWith("/verify-email/")
          ? "verify-email"
          : path.split("/").pop()!;

/**
 * A workspace with something on every page (a creative, a key, a webhook with a delivery, an invite):
 * the values the page list's paths need.
 */
async function workspaceWithEverything(page: import("@playwright/test").Page, receiverUrl: string): Promise<Record<string, string>> {
  const { email } = await signUp(page, { workspace: "Everywhere" });
  // The sign-up's address confirmation link, left unconfirmed: every page shows the banner.
  const { messages } = await admin<{ messages: { subject: string; text: string }[] }>(["mail", "list", "--to", email]);
  const verifyToken = /\/verify-email\/([\w-]+)/.exec(messages.find((m) => m.subject === "Confirm your email address for Adloom")!.text)![1]!;
  await subscribeToPro(page);
  const workspaceId = await workspaceIdOf(page);
  await admin(["folder", "create", "--workspace", workspaceId, "--name", "Summer campaign"]);
  const creativeId = await uploadImage(page, "everywhere.png");

  await page.goto("/dashboard/settings/api-keys");
  await page.getByLabel("Name").fill("Reporting script");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("api-key-row")).toHaveCount(1);

  await page.goto("/dashboard/settings/webhooks");
  await page.getByLabel("Endpoint URL").fill(receiverUrl);
  await page.getByRole("button", { name: "Save endpoint" }).click();
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByTestId("delivery-row").first()).toHaveAttribute("data-outcome", "succeeded", { timeout: paced(30_000) });

  await page.goto("/dashboard/settings/team");
  await page.getByLabel("Email").fill(uniqueEmail("invitee"));
  await page.getByRole("button", { name: "Create invite link" }).click();
  const inviteToken = (await page.getByTestId("invite-link").textContent())!.trim().split("/").pop()!;
  return { creativeId, inviteToken, verifyToken };
}

// Each width is its own test (on its own worker when two run): every page, axe and tab stops.
test.describe("every page", () => {
  test.describe.configure({ mode: "parallel" });
  // The not-found page (in DASHBOARD_PAGES) answers 404 on purpose; the browser logs that status.
  test.use({ allowConsole: [/^Failed to load resource: the server responded with a status of 404 \(Not Found\)$/] });

  test("at phone width every page fits, passes axe and has visible tab stops; the menu button opens the navigation", async ({ page, browser }) => {
    test.setTimeout(paced(300_000));
    const receiver = await startReceiver(200);
    try {
      const values = await workspaceWithEverything(page, receiver.url);

      // The sidebar is behind the menu button, and closes after navigating.
      await page.setViewportSize(PHONE);
      await page.goto("/dashboard/library");
      const mainNav = page.getByRole("navigation", { name: "Main" });
      await expect(mainNav).toBeHidden();
      await page.getByRole("button", { name: "Menu" }).click();
      await expect(mainNav).toBeVisible();
      await mainNav.getByRole("link", { name: "Team" }).click();
      await expect(page).toHaveURL(/\/dashboard\/settings\/team$/);
      await expect(mainNav).toBeHidden();

      await visitEveryPage(page, DASHBOARD_PAGES, {
        values,
        viewport: PHONE,
        onPage: async (path) => {
          const name = screenshotName(path);
          if (name) await screenshot(page, `${name}-phone`);
        },
      });
      const guestContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
      const guest = await guestContext.newPage();
      await visitEveryPage(guest, GUEST_PAGES, {
        values,
        viewport: PHONE,
        onPage: async (path) => (path === "/sign-in" ? screenshot(guest, "sign-in-phone") : undefined),
      });
      await guestContext.close();
    } finally {
      await receiver.close();
    }
  });

  test("at desktop width every page fits, passes axe and has visible tab stops", async ({ page, browser }) => {
    test.setTimeout(paced(300_000));
    const receiver = await startReceiver(200);
    try {
      const values = await workspaceWithEverything(page, receiver.url);
      await visitEveryPage(page, DASHBOARD_PAGES, {
        values,
        viewport: DESKTOP,
        onPage: async (path) => {
          const name = screenshotName(path);
          if (name) await screenshot(page, name);
        },
      });
      const guestContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
      const guest = await guestContext.newPage();
      await visitEveryPage(guest, GUEST_PAGES, { values, viewport: DESKTOP });
      await guestContext.close();
    } finally {
      await receiver.close();
    }
  });
});

test("the trial banner counts 14 days on day 0, and cancelling Pro during the trial keeps the trial", async ({ page }) => {
  await signUp(page, { workspace: "Trial Keepers" });
  await expect(page.getByRole("complementary", { name: "Plan" })).toContainText("Free trial: 14 days left.");
  await expectNoAxeViolations(page); // the banner sits in its own landmark
  await switchToPro(page);
  await page.getByRole("button", { name: "Cancel Pro plan" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel the Pro plan?" });
  await expect(dialog).toContainText("goes back to its free trial");
  await expect(dialog).toContainText("14 days left");
  await expect(dialog).toContainText("the dashboard keeps working");
  await dialog.getByRole("button", { name: "Cancel plan" }).click();
  await expect(page.getByTestId("plan-state")).toHaveText("Free trial");
  await page.goto("/dashboard/library");
  await expect(page.getByText("Choose a plan to open your library")).toHaveCount(0);
  await expect(page.getByText("Your library is empty")).toBeVisible();
});

test("a deep link survives signing in", async ({ page, browser }) => {
  const { email } = await signUp(page, { workspace: "Deep Links" });
  const guest = await browser.newPage({ baseURL: process.env.E2E_BASE_URL });
  await guest.goto("/dashboard/settings/team?tab=members");
  await expect(guest).toHaveURL(/\/sign-in\?callbackUrl=/);
  await guest.getByLabel("Email").fill(email);
  await guest.getByLabel("Password").fill(PASSWORD);
  await guest.getByRole("button", { name: "Sign in" }).click();
  await expect(guest).toHaveURL(/\/dashboard\/settings\/team\?tab=members$/);
  await expect(guest.getByRole("heading", { level: 1, name: "Team" })).toBeVisible();
  await guest.close();
});

test("copy: unsaved edits warn before leaving, deleting a variant asks first", async ({ page }) => {
  await signUp(page, { workspace: "Careful Copy" });
  const creativeId = await uploadImage(page, "careful.png");
  await page.goto(`/dashboard/library/${creativeId}`);
  await page.getByRole("button", { name: "Add variant" }).click();
  const variant = page.getByTestId("copy-variant").first();
  await variant.getByLabel("Headline").fill("Unsaved headline");

  // Leaving through an in-app link asks; dismissing keeps the edit on the page.
  const dialogs: string[] = [];
  page.once("dialog", (d) => (dialogs.push(d.message()), void d.dismiss()));
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Uploads" }).click();
  await expect.poll(() => dialogs.length).toBe(1);
  expect(dialogs[0]).toContain("unsaved changes");
  await expect(page).toHaveURL(new RegExp(`/dashboard/library/${creativeId}$`));
  await expect(variant.getByLabel("Headline")).toHaveValue("Unsaved headline");

  // Saved, nothing to warn about; deleting asks for confirmation, and Cancel keeps the variant.
  await variant.getByRole("button", { name: "Save variant" }).click();
  await expect(variant.getByText("Saved", { exact: true })).toBeVisible();
  await variant.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete this copy variant?" });
  await expect(confirm).toContainText("Unsaved headline");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("copy-variant")).toHaveCount(1);
  await variant.getByRole("button", { name: "Delete" }).click();
  await confirm.getByRole("button", { name: "Delete variant" }).click();
  await expect(page.getByTestId("copy-variant")).toHaveCount(0);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Uploads" }).click();
  await expect(page).toHaveURL(/\/dashboard\/uploads$/);
  expect(dialogs).toHaveLength(1);
});

test("webhooks: the test banner tells a refused delivery, the request body is formatted", async ({ page }) => {
  const receiver = await startReceiver(500);
  try {
    await signUp(page, { workspace: "Refused Hooks" });
    await subscribeToPro(page);
    await page.goto("/dashboard/settings/webhooks");
    await page.getByLabel("Endpoint URL").fill(receiver.url);
    await page.getByRole("button", { name: "Save endpoint" }).click();
    await page.getByRole("button", { name: "Send test event" }).click();
    const outcome = page.getByTestId("test-outcome");
    await expect(outcome).toHaveAttribute("data-outcome", "failed", { timeout: paced(30_000) });
    await expect(outcome).toContainText("did not accept the test event: it answered 500");
    await expect(page.getByText("Test event sent. It appears")).toHaveCount(0);
    await page.getByTestId("delivery-row").first().getByRole("button", { name: "Details" }).click();
    const body = (await page.getByTestId("request-body").textContent())!;
    expect(body).toContain('\n  "type": "test"');
  } finally {
    await receiver.close();
  }
});

test("library: the folder is in the URL and preselected by Upload files; tiles do not prefetch", async ({ page }) => {
  await signUp(page, { workspace: "Folders In URLs" });
  await subscribeToPro(page);
  const workspaceId = await workspaceIdOf(page);
  const { folderId } = await admin(["folder", "create", "--workspace", workspaceId, "--name", "Autumn"]);
  await admin(["library", "seed", "--workspace", workspaceId, "--count", "30"]);

  const prefetches: string[] = [];
  page.on("request", (r) => {
    const h = r.headers();
    if (h["next-router-prefetch"] || (h["rsc"] && r.url().includes("/dashboard/library/"))) prefetches.push(r.url());
  });
  await page.goto("/dashboard/library");
  await expect(page.getByTestId("creative-tile").first()).toBeVisible();
  await page.mouse.wheel(0, 4000);
  await page.waitForTimeout(1000);
  expect(prefetches.filter((u) => /\/dashboard\/library\/[^/?]+/.test(u))).toEqual([]);

  await page.getByRole("navigation", { name: "Folders" }).getByRole("button", { name: "Autumn" }).click();
  await expect(page).toHaveURL(new RegExp(`folder=${folderId}`));
  await page.getByRole("link", { name: "Upload files" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/uploads\\?folder=${folderId}`));
  await expect(page.getByLabel("Library folder")).toHaveValue(folderId);
});

test("uploads: a viewer is told why Choose files is disabled; a failed upload reads like a sentence", async ({ page, browser }) => {
  test.setTimeout(paced(180_000));
  await signUp(page, { workspace: "Readable Uploads" });
  await subscribeToPro(page);
  const workspaceId = await workspaceIdOf(page);

  await page.goto("/dashboard/uploads");
  await expect(page.getByText("No uploads yet")).toBeVisible();
  await page.getByTestId("upload-input").setInputFiles([{ name: "sandbox-fail-banner.png", mimeType: "image/png", buffer: await pngImage(100, 100) }]);
  const row = page.locator('[data-testid="upload-row"][data-file="sandbox-fail-banner.png"]');
  // During the retries the row counts the attempts.
  await expect(row.getByTestId("upload-attempt")).toContainText(/Attempt [2-5] of 5/, { timeout: paced(60_000) });
  await expect(row).toHaveAttribute("data-status", "failed", { timeout: paced(120_000) });
  const error = row.getByTestId("upload-error");
  await expect(error).toContainText("Platform A did not accept the file");
  await expect(error).not.toContainText("platform_a");
  await expect(error).not.toContainText("sandbox");

  // A completed job links to its creative.
  await page.getByTestId("upload-input").setInputFiles([{ name: "linked.png", mimeType: "image/png", buffer: await pngImage(120, 80) }]);
  const done = page.locator('[data-testid="upload-row"][data-file="linked.png"]');
  await expect(done).toHaveAttribute("data-status", "completed", { timeout: paced(60_000) });
  await done.getByRole("link", { name: "Open in library" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("linked.png");

  const viewerEmail = uniqueEmail("viewer");
  await admin(["member", "add", "--workspace", workspaceId, "--email", viewerEmail, "--role", "viewer"]);
  await admin(["user", "password", "--email", viewerEmail, "--password", PASSWORD]);
  const viewerContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL }); // axe needs a page of its own context
  const viewer = await viewerContext.newPage();
  await viewer.goto("/dashboard/uploads");
  await viewer.getByLabel("Email").fill(viewerEmail);
  await viewer.getByLabel("Password").fill(PASSWORD);
  await viewer.getByRole("button", { name: "Sign in" }).click();
  await expect(viewer).toHaveURL(/\/dashboard\/uploads$/);
  await expect(viewer.getByRole("button", { name: "Choose files", exact: true })).toBeDisabled();
  await expect(viewer.getByTestId("upload-not-allowed")).toContainText("Your role (viewer) can view uploads but not add, retry or dismiss them");
  // Dismiss is disabled with the reason instead of answering a raw permission error.
  const dismiss = viewer.getByRole("button", { name: "Dismiss linked.png" });
  await expect(dismiss).toBeDisabled();
  await expect(dismiss).toHaveAttribute("aria-describedby", "upload-not-allowed");
  // Leads' submissions (names, emails) need leads.export, to export or to read, which viewers lack: the page says so.
  for (const viewport of [DESKTOP, PHONE]) {
    await viewer.setViewportSize(viewport);
    await viewer.goto("/dashboard/leads");
    const exportButton = viewer.getByRole("button", { name: "Export CSV" });
    await expect(exportButton).toBeDisabled();
    await expect(viewer.getByTestId("export-not-allowed")).toContainText('needs the permission "leads.export"');
    await expect(viewer.getByTestId("leads-not-allowed")).toContainText("Submissions are not shown to your role");
    await expectNoAxeViolations(viewer);
    await viewer.goto("/dashboard/uploads");
    await expect(viewer.getByRole("button", { name: "Dismiss linked.png" })).toBeDisabled();
    await expectNoAxeViolations(viewer);
  }
  const refused = await viewer.request.get("/api/v1/leads/export.csv");
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.code).toBe("forbidden");
  await viewerContext.close();
});

test("library: duplicates are marked; creatives move by menu and by drag and drop; folders are renamed and deleted; filters narrow the grid", async ({
  page,
}) => {
  await signUp(page, { workspace: "Tidy Library" });
  await subscribeToPro(page);
  const workspaceId = await workspaceIdOf(page);
  await admin(["folder", "create", "--workspace", workspaceId, "--name", "Autumn"]);
  const same = await pngImage(300, 200);
  await page.goto("/dashboard/uploads");
  await expect(page.getByText("No uploads yet")).toBeVisible();
  await page.getByTestId("upload-input").setInputFiles([{ name: "first-copy.png", mimeType: "image/png", buffer: same }]);
  await expect(page.locator('[data-testid="upload-row"][data-file="first-copy.png"]')).toHaveAttribute("data-status", "completed", { timeout: paced(60_000) });
  await page.getByTestId("upload-input").setInputFiles([{ name: "second-copy.png", mimeType: "image/png", buffer: same }]);
  await expect(page.locator('[data-testid="upload-row"][data-file="second-copy.png"]')).toHaveAttribute("data-status", "completed", { timeout: paced(60_000) });

  await page.goto("/dashboard/library");
  // By the tile's own file name (a duplicate's tile also names the original).
  const tile = (name: string) => page.getByTestId("creative-tile").filter({ has: page.getByTitle(name, { exact: true }) });
  await expect(tile("second-copy.png").getByTestId("duplicate-of")).toHaveText("Duplicate of first-copy.png");
  await expect(tile("first-copy.png").getByTestId("duplicate-of")).toHaveCount(0);

  // Move by the menu.
  const folders = page.getByRole("navigation", { name: "Folders" });
  await page.getByLabel("Select first-copy.png").check();
  await page.getByLabel("Move selected to").selectOption({ label: "Autumn" });
  await page.getByRole("button", { name: "Move 1 selected" }).click();
  await expect(page.getByText("Moved 1 creative to Autumn.")).toBeVisible();
  await folders.getByRole("button", { name: "Autumn", exact: true }).click();
  await expect(page.getByTestId("creative-tile")).toHaveCount(1);

  // Move by drag and drop onto a folder.
  await folders.getByRole("button", { name: "Library root", exact: true }).click();
  await expect(page.getByTestId("creative-tile")).toHaveCount(1);
  await tile("second-copy.png").dragTo(folders.getByRole("button", { name: "Autumn", exact: true }));
  await expect(page.getByText("Moved 1 creative to Autumn.")).toBeVisible();
  await expect(page.getByText("This folder is empty")).toBeVisible();
  await folders.getByRole("button", { name: "Autumn", exact: true }).click();
  await expect(page.getByTestId("creative-tile")).toHaveCount(2);

  // Filters run on the server.
  await page.getByLabel("Type").selectOption("video");
  await expect(page.getByText("Nothing matches these filters")).toBeVisible();
  await page.getByLabel("Type").selectOption("");
  await page.getByLabel("Aspect ratio").selectOption("landscape");
  await expect(page.getByTestId("creative-tile")).toHaveCount(2);
  await page.getByLabel("Aspect ratio").selectOption("");

  // Rename, then delete (refused while it holds creatives).
  await folders.getByRole("button", { name: "Rename “Autumn”" }).click();
  await folders.getByLabel("New name for Autumn").fill("Fall");
  await folders.getByRole("button", { name: "Save" }).click();
  await expect(folders.getByRole("button", { name: "Fall", exact: true })).toBeVisible();
  await folders.getByRole("button", { name: "Delete folder" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete folder" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The folder is not empty" })).toBeVisible();
  await page.getByLabel("Select all shown").check();
  await page.getByLabel("Move selected to").selectOption({ label: "Library root" });
  await page.getByRole("button", { name: "Move 2 selected" }).click();
  await expect(page.getByText("Moved 2 creatives to the library root.")).toBeVisible();
  await folders.getByRole("button", { name: "Fall", exact: true }).click();
  await folders.getByRole("button", { name: "Delete folder" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete folder" }).click();
  await expect(page.getByText("Deleted the folder Fall.")).toBeVisible();
  await expect(folders.getByRole("button", { name: "Fall", exact: true })).toHaveCount(0);
});

test("a forgotten password is reset through the emailed link (outbox without SMTP), and invites wait in the outbox, as the page says", async ({
  page,
  browser,
}) => {
  const { email } = await signUp(page, { workspace: "Forgetful" });
  // A new account's address is unconfirmed: the banner offers a new link (no SMTP: it waits in the outbox).
  const banner = page.getByRole("complementary", { name: "Address confirmation" });
  await banner.getByRole("button", { name: "Email me a new link" }).click();
  await expect(banner.getByRole("status")).toContainText("waits in this server's outbox");
  await page.goto("/dashboard/settings/team");
  const invitee = uniqueEmail("invitee");
  await page.getByLabel("Email").fill(invitee);
  await page.getByRole("button", { name: "Create invite link" }).click();
  // No SMTP server on the e2e run: the page says the email waits in the outbox, not "we emailed".
  await expect(page.getByText(/No mail server is configured, so the invite email to .* waits in the server's outbox/)).toContainText(invitee);
  const inviteMail = await admin<{ messages: { subject: string; text: string }[] }>(["mail", "list", "--to", invitee]);
  expect(inviteMail.messages[0]!.text).toContain((await page.getByTestId("invite-link").textContent())!.trim());

  const guestContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const guest = await guestContext.newPage();
  await guest.goto("/sign-in");
  await guest.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(guest).toHaveURL(/\/forgot-password$/);
  await guest.waitForLoadState("networkidle");
  await guest.getByLabel("Email").fill(email);
  await guest.getByRole("button", { name: "Email me a reset link" }).click();
  await expect(guest.getByText("the email with a reset link waits in this server's outbox")).toBeVisible();
  // A job makes and sends the link after the form's answer (known and unknown addresses answer alike). The address's
  // confirmation links (the sign-up's and the banner's) wait in the outbox beside it.
  const resets = async () =>
    (await admin<{ messages: { subject: string; text: string }[] }>(["mail", "list", "--to", email])).messages.filter(
      (m) => m.subject === "Reset your Adloom password",
    );
  await expect.poll(async () => (await resets()).length).toBe(1);
  const link = /(http:\/\/\S+\/reset-password\/\S+)/.exec((await resets())[0]!.text)![1]!;
  await guest.goto(link);
  await guest.getByLabel("New password", { exact: true }).fill("a brand new password");
  await guest.getByLabel("Repeat the new password").fill("a brand new password");
  await guest.getByRole("button", { name: "Set new password" }).click();
  await expect(guest.getByText("Your password is changed.")).toBeVisible();
  await guest.getByRole("link", { name: "Sign in" }).click();
  await guest.getByLabel("Email").fill(email);
  await guest.getByLabel("Password").fill("a brand new password");
  await guest.getByRole("button", { name: "Sign in" }).click();
  await expect(guest).toHaveURL(/\/dashboard\/library/);
  // The reset link was mailed to the address: it is confirmed now.
  await expect(guest.getByRole("heading", { name: "Library", exact: true })).toBeVisible();
  await expect(guest.getByRole("complementary", { name: "Address confirmation" })).toHaveCount(0);
  await guest.goto(link);
  await expect(guest.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();
  await guestContext.close();
  // The reset ended the session signed in with the old password (one a thief might hold).
  await page.goto("/dashboard/library");
  await expect(page).toHaveURL(/\/sign-in/);
});

test("profile: name, password and time zone (used for the times shown); another workspace from the switcher", async ({ page }) => {
  const { email } = await signUp(page, { workspace: "First Shop" });
  const creativeId = await uploadImage(page, "zoned.png");
  await page.goto(`/dashboard/library/${creativeId}`);
  await expect(page.getByText(/\d\d:\d\d:\d\d UTC/)).toBeVisible();

  await page.goto("/dashboard/settings/profile");
  await page.getByLabel("Name", { exact: true }).fill("Olivia Renamed");
  await page.getByLabel("Time zone").selectOption("Asia/Tokyo");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();
  await expect(page.locator("#dashboard-sidebar")).toContainText("Olivia Renamed");
  await page.goto(`/dashboard/library/${creativeId}`);
  await expect(page.getByText(/\d\d:\d\d:\d\d GMT\+9/)).toBeVisible();

  await page.goto("/dashboard/settings/profile");
  await page.getByLabel("Current password").fill("not my password");
  await page.getByLabel("New password").fill("another long password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("The current password is not right")).toBeVisible();
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByRole("button", { name: "Change password" }).click();
  // Every session ends, this one too: sign in with the new password, back to the profile.
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.getByText("Your password is changed")).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("another long password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings\/profile/);

  await page.getByRole("link", { name: "+ New workspace" }).click();
  await page.getByLabel("Workspace name").fill("Second Shop");
  await page.getByRole("button", { name: "Create workspace" }).click();
  await expect(page).toHaveURL(/\/dashboard\/library/);
  await expect(page.getByText("0 creatives in Second Shop")).toBeVisible();
  const switcher = page.getByLabel("Workspace", { exact: true });
  await expect(switcher.locator("option")).toHaveCount(2);
  await expect(switcher).toContainText("First Shop (owner)");
  await expect(switcher.locator("option:checked")).toHaveText("Second Shop (owner)");
  expect(email).toContain("@");
});
