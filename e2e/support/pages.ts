import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1440, height: 900 };

/**
 * A page the suite visits at phone and desktop width. `path` may hold `:name` placeholders,
 * filled from the values the spec passes (ids it created). To cover a new page, add one line.
 */
export interface PageToVisit {
  path: string;
  /** The page's h1, checked before measuring (the page has rendered). */
  heading: string | RegExp;
}

/** Pages a visitor sees signed out. */
export const GUEST_PAGES: PageToVisit[] = [
  { path: "/sign-in", heading: "Sign in to Adloom" },
  { path: "/sign-up", heading: "Create your workspace" },
  { path: "/forgot-password", heading: "Reset your password" },
  { path: "/invite/:inviteToken", heading: /^Join / },
  // The address confirmation link opened signed out: it asks to sign in to that account.
  { path: "/verify-email/:verifyToken", heading: "Confirm your email address" },
];

/** Every dashboard page, with data in it (the spec creates a creative, keys, a member, a webhook delivery). */
export const DASHBOARD_PAGES: PageToVisit[] = [
  { path: "/dashboard/library", heading: "Library" },
  { path: "/dashboard/library/:creativeId", heading: /\.png$/ },
  { path: "/dashboard/library/cre_does_not_exist", heading: "Not found" },
  { path: "/dashboard/uploads", heading: "Uploads" },
  { path: "/dashboard/import", heading: "Import" },
  { path: "/dashboard/ads", heading: "Ads" },
  { path: "/dashboard/performance/rules", heading: "Performance" },
  { path: "/dashboard/performance", heading: "Performance" },
  { path: "/dashboard/leads", heading: "Leads" },
  { path: "/dashboard/tasks", heading: "Tasks" },
  { path: "/dashboard/moderation", heading: "Moderation" },
  { path: "/dashboard/review-links", heading: "Review links" },
  { path: "/dashboard/assistant", heading: "Assistant" },
  { path: "/dashboard/settings/api-keys", heading: "API keys" },
  { path: "/dashboard/settings/webhooks", heading: "Webhooks" },
  { path: "/dashboard/settings/notifications", heading: "Notifications" },
  { path: "/dashboard/settings/naming", heading: "Naming" },
  { path: "/dashboard/settings/team", heading: "Team" },
  { path: "/dashboard/settings/plan", heading: "Plan" },
  { path: "/dashboard/settings/security", heading: "Security" },
  { path: "/dashboard/settings/profile", heading: "Profile" },
  // Without an authorization request (e2e/oauth-consent.spec.ts covers a real one).
  { path: "/dashboard/oauth/consent", heading: "This connection request is not valid" },
  // Not under /dashboard: the sign-up's address confirmation link, opened by its account (the Confirm button).
  { path: "/verify-email/:verifyToken", heading: "Confirm your email address" },
];

export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`No value for :${name} in ${path}`);
    return encodeURIComponent(value);
  });
}

/**
 * Holds the page's JavaScript chunks back until the returned function is called: the server-rendered page is there,
 * but nothing listens to it yet (what a person can do before the page has hydrated).
 */
export async function holdPageScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/_next/static/chunks/**", async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Fails when the document is wider than the viewport (WCAG 1.4.10 reflow): names the widest elements. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => {
    const width = window.innerWidth;
    const scroll = document.documentElement.scrollWidth;
    if (scroll <= width) return null;
    const culprits = [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > width + 1)
      .slice(0, 5)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}.${[...el.classList].slice(0, 4).join(".")} (right ${Math.round(el.getBoundingClientRect().right)})`,
      );
    return { scroll, width, culprits };
  });
  expect(overflow, `document wider than the viewport at ${page.url()}`).toBeNull();
}

/**
 * axe-core with its default rule set (WCAG A/AA and best practices): zero violations.
 * `axe.run` in the page (legacy mode) and only the violations' nodes serialized: the default mode's `runPartial`
 * builds a selector for every node of every passing rule and finishes in a second, blank page. Our pages hold no
 * cross-origin frames (which only the default mode reaches); the same rules run on the same DOM and report the same
 * violations, in about a third of the time (docs/testing.md).
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ["violations"] })
    .analyze();
  const summary = violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(" "))
        .join("\n    ")}`,
  );
  expect(summary, `axe violations at ${page.url()}`).toEqual([]);
}

/**
 * Tabs through the page: every stop must be visible (it has a size, is not clipped away, and
 * shows a focus ring). The skip link counts: it appears when focused.
 */
export async function expectVisibleTabStops(page: Page, maxStops = 40): Promise<void> {
  // Each Tab's focused element is measured in the page when the key comes up (after focus moved), so a stop
  // costs one round trip, not two; the stops are read back in batches.
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    const w = window as unknown as { __tabStops: unknown[]; __tabStopsListening?: boolean };
    w.__tabStops = [];
    if (w.__tabStopsListening) return;
    w.__tabStopsListening = true;
    window.addEventListener(
      "keyup",
      (event) => {
        if (event.key !== "Tab") return;
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return void w.__tabStops.push(null);
        const r = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        const described = `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40)}"`;
        const key = described + `@${Math.round(r.x)},${Math.round(r.y)}`;
        const visible = r.width >= 2 && r.height >= 2 && style.visibility !== "hidden" && Number(style.opacity) > 0;
        const ring = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0 ? true : style.boxShadow !== "none";
        w.__tabStops.push({ key, described, visible, ring });
      },
      true,
    );
  });
  const problems: string[] = [];
  const seen = new Set<string>();
  const BATCH = 8;
  walk: for (let pressed = 0; pressed < maxStops; ) {
    const n = Math.min(BATCH, maxStops - pressed);
    for (let i = 0; i < n; i++) await page.keyboard.press("Tab");
    const stops = await page.evaluate(([from, count]) => (window as unknown as { __tabStops: unknown[] }).__tabStops.slice(from, from + count), [
      pressed,
      n,
    ] as const);
    pressed += n;
    for (const stop of stops as ({ key: string; described: string; visible: boolean; ring: boolean } | null)[]) {
      if (!stop || seen.has(stop.key)) break walk;
      seen.add(stop.key);
      if (!stop.visible) problems.push(`invisible tab stop: ${stop.described}`);
      else if (!stop.ring) problems.push(`no focus ring: ${stop.described}`);
    }
  }
  expect(problems, `tab stops at ${page.url()}`).toEqual([]);
}

/**
 * Opens each page at the given size and checks it: heading shown, nothing wider than the
 * viewport, axe clean, every tab stop visible. `onPage` may add a per-page step (a screenshot).
 */
export async function visitEveryPage(
  page: Page,
  pages: PageToVisit[],
  options: { values?: Record<string, string>; viewport: { width: number; height: number }; onPage?: (path: string) => Promise<void> },
): Promise<void> {
  await page.setViewportSize(options.viewport);
  for (const p of pages) {
    const path = fillPath(p.path, options.values ?? {});
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first(), `h1 of ${path}`).toHaveText(p.heading);
    await options.onPage?.(path);
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await expectVisibleTabStops(page);
  }
}
