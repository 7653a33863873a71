import { test as base, expect, type Page } from "@playwright/test";
import { sendAdminCommand } from "../../lib/admin/socket-client";
import { paced } from "../../scripts/test-pace.mjs";

export { expect };

/** Runs an operator command in the e2e server (the path `npm run admin` takes while it runs). */
export async function admin<T = Record<string, string>>(argv: string[]): Promise<T> {
  const { ok, body } = await sendAdminCommand(process.env.E2E_DATA_DIR!, argv);
  if (!ok) throw new Error(`admin ${argv.join(" ")} failed: ${JSON.stringify(body)}`);
  return body as T;
}

let counter = 0;
/** A unique email for this run (the worker's process id too: two workers' counters meet within one millisecond). */
export const uniqueEmail = (label: string) => `${label}-${Date.now()}-${process.pid}-${++counter}@example.com`;
export const PASSWORD = "correct horse battery staple";

/**
 * Every page a test opens fails the test on a console error or an uncaught page error
 * (failed network requests the test provokes on purpose are filtered by `allowConsole`).
 */
export const test = base.extend<{ consoleErrors: string[]; allowConsole: RegExp[] }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from its destructured first parameter
  baseURL: async ({}, use) => use(process.env.E2E_BASE_URL),
  allowConsole: [[], { option: true }],
  consoleErrors: [
    async ({ context, allowConsole }, use) => {
      const errors: string[] = [];
      const watch = (page: Page) => {
        page.on("console", (msg) => {
          if (msg.type() === "error" && !allowConsole.some((re) => re.test(msg.text()))) errors.push(`${page.url()}: ${msg.text()}`);
        });
        page.on("pageerror", (err) => errors.push(`${page.url()}: uncaught ${err.message}`));
      };
      context.pages().forEach(watch);
      context.on("page", watch);
      await use(errors);
      expect(errors, "console errors in the browser").toEqual([]);
    },
    { auto: true },
  ],
});

/** Signs up through the form and lands on the library; returns the credentials. */
export async function signUp(page: Page, options: { name?: string; workspace?: string } = {}): Promise<{ email: string; password: string }> {
  const email = uniqueEmail("owner");
  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill(options.name ?? "Olivia Owner");
  await page.getByLabel("Work email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByLabel("Workspace name").fill(options.workspace ?? "Acme Ads");
  await page.getByRole("button", { name: "Start free trial" }).click();
  await expect(page).toHaveURL(/\/dashboard\/library/);
  return { email, password: PASSWORD };
}

/** Switches the active workspace to Pro through the plan page. */
export async function switchToPro(page: Page): Promise<void> {
  await page.goto("/dashboard/settings/plan");
  await page.getByRole("button", { name: "Switch to Pro" }).click();
  await expect(page.getByTestId("plan-state")).toHaveText("Pro");
}

/**
 * Puts the signed-in member's workspace on Pro through the `change_plan` tool: a request, where `switchToPro` renders
 * the plan page in the browser and clicks. For journeys that need Pro but do not test the plan page (account.spec.ts
 * and dashboard-everywhere.spec.ts do); the page stays where it was, so load the next page before using it.
 */
export async function subscribeToPro(page: Page): Promise<void> {
  const res = await page.request.post("/api/v1/tools/change_plan", { data: { plan: "pro" }, headers: { Origin: new URL(page.url()).origin } });
  if (!res.ok()) throw new Error(`change_plan: ${res.status()} ${await res.text()}`);
}

/** The active workspace's id, read from the plan page's HTML as the server sends it (not rendered in the browser). */
export async function workspaceIdOf(page: Page): Promise<string> {
  const html = await (await page.request.get("/dashboard/settings/plan")).text();
  const id = /data-testid="workspace-id"[^>]*>([^<]+)</.exec(html)?.[1]?.trim();
  if (!id) throw new Error("no workspace id on the plan page");
  return id;
}

/**
 * Takes a screenshot for the docs: into docs/screenshots when UPDATE_SCREENSHOTS=1 (`npm run screenshots`), into
 * test-results/screenshots when E2E_SCREENSHOTS=1. An ordinary run (`npm test`) takes none: the pictures assert
 * nothing, and waiting for each page's images and encoding forty of them cost a share of the journeys' time
 * (docs/testing.md). A failing test still keeps its screenshot (playwright.config.ts).
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const docs = process.env.UPDATE_SCREENSHOTS === "1";
  if (!docs && process.env.E2E_SCREENSHOTS !== "1") return;
  // Let the images in view finish loading, so the picture shows what a person sees a moment later.
  await page
    .waitForFunction(
      () =>
        [...document.images]
          .filter((img) => {
            const r = img.getBoundingClientRect();
            return r.bottom > 0 && r.top < window.innerHeight && r.width > 0;
          })
          .every((img) => img.complete),
      undefined,
      { timeout: paced(5_000) },
    )
    .catch(() => undefined);
  const folder = docs ? "docs/screenshots" : "test-results/screenshots";
  await page.screenshot({ path: `${folder}/${name}.png`, fullPage: false });
}
