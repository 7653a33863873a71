/**
 * npm run bench:boards [-- --db postgres]
 * A board of 500 creative cards (real creatives through the upload job, laid out by arrange_board),
 * opened in Chromium at 1440 × 900: the time from navigation start until the cards are on the
 * canvas (loaded) and until a click on a card has selected it (interactive). Target: interactive < 1 s.
 */
import fs from "node:fs";
import { chromium } from "@playwright/test";
import sharp from "sharp";
import { startBenchServer } from "./lib";

const CARDS = 500;
const RUNS = 3;
const TARGET_MS = 1000;

const { server, db, stop } = await startBenchServer({ RATE_LIMIT_PER_MINUTE: "100000000" });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu"],
});
try {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill("Bench Board");
  await page.getByLabel("Work email").fill(`bench-${Date.now()}@example.com`);
  await page.getByLabel("Password").fill("correct horse battery staple");
  await page.getByLabel("Workspace name").fill("Bench boards");
  await page.getByRole("button", { name: "Start free trial" }).click();
  await page.waitForURL(/\/dashboard\/library/);

  const tool = async (name: string, args: object): Promise<any> => {
    const res = await page.request.post(`/api/v1/tools/${name}`, { data: args, headers: { Origin: server.url } });
    const body = await res.json();
    if (!res.ok()) throw new Error(`${name}: ${res.status()} ${JSON.stringify(body)}`);
    return body.result;
  };

  const seedStarted = Date.now();
  const png = (
    await sharp({ create: { width: 96, height: 96, channels: 3, background: "#6366f1" } })
      .png()
      .toBuffer()
  ).toString("base64");
  for (let sent = 0; sent < CARDS; sent += 5) {
    const files = Array.from({ length: Math.min(5, CARDS - sent) }, (_, i) => ({
      fileName: `BENCH_${(sent + i) % 7}_card-${sent + i}.png`,
      contentBase64: png,
      contentType: "image/png",
    }));
    await tool("create_upload", { files, platform: "platform_a" });
  }
  let creatives: any[] = [];
  for (let cursor: string | null = null; ; ) {
    await new Promise((r) => setTimeout(r, 500));
    creatives = [];
    cursor = null;
    do {
      const pageOf: any = await tool("list_creatives", { limit: 200, ...(cursor ? { cursor } : {}) });
      creatives.push(...pageOf.creatives);
      cursor = pageOf.nextCursor;
    } while (cursor);
    if (creatives.length >= CARDS && creatives.every((c) => c.status === "ready")) break;
  }
  const { board } = await tool("create_board", { name: "500 cards" });
  for (const c of creatives.slice(0, CARDS)) await tool("add_board_item", { boardId: board.id, kind: "creative", creativeId: c.id });
  await tool("arrange_board", { boardId: board.id, groupBy: "none" });
  console.log(`seeded ${CARDS} creatives and cards in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`);

  const { board: empty } = await tool("create_board", { name: "Empty" });

  /**
   * One cold page load: navigation timing (the server's answer), the first card on the canvas, a click
   * answered, and the main thread's CPU time for the load (Chromium's TaskDuration / ScriptDuration).
   */
  const measure = async (boardId: string, cards: boolean, profileTo?: string) => {
    const p = await context.newPage();
    const cdp = await context.newCDPSession(p);
    await cdp.send("Performance.enable");
    if (profileTo) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
    }
    await p.goto(`/dashboard/boards/${boardId}`, { waitUntil: "commit" });
    let loaded: number;
    let interactive: number;
    if (cards) {
      const first = p.locator(".react-flow__node-creative").first();
      await first.waitFor({ state: "visible" });
      loaded = await p.evaluate(() => performance.now());
      // Click a card that lies wholly inside the canvas (the first in the DOM may be only partly in view).
      const target = await p.evaluate(() => {
        const pane = document.querySelector("[data-testid=board-canvas]")!.getBoundingClientRect();
        for (const el of document.querySelectorAll(".react-flow__node-creative")) {
          const r = el.getBoundingClientRect();
          if (r.left > pane.left + 40 && r.top > pane.top + 10 && r.right < pane.right - 10 && r.bottom < pane.bottom - 10)
            return { x: r.left + 20, y: r.top + 20 };
        }
        return null;
      });
      if (!target) throw new Error("no card lies wholly inside the canvas");
      // Like a person: click, and click again if the page has not answered (a click before hydration is lost).
      const selected = p.locator(".react-flow__node-creative.selected").first();
      for (let answered = false; !answered; ) {
        await p.mouse.click(target.x, target.y);
        answered = await selected.waitFor({ timeout: 100 }).then(
          () => true,
          () => false,
        );
      }
      interactive = await p.evaluate(() => performance.now());
    } else {
      // The empty board: interactive when its canvas answers a click (the pane is there and hydrated).
      await p.locator(".react-flow__pane").waitFor();
      loaded = await p.evaluate(() => performance.now());
      await p.getByRole("button", { name: "Zoom in" }).click();
      await p.waitForFunction(() => /scale\((?!1\))/.test(document.querySelector(".react-flow__viewport")?.getAttribute("style") ?? ""));
      interactive = await p.evaluate(() => performance.now());
    }
    if (profileTo) fs.writeFileSync(profileTo, JSON.stringify((await cdp.send("Profiler.stop")).profile));
    const metrics = Object.fromEntries(((await cdp.send("Performance.getMetrics")).metrics as { name: string; value: number }[]).map((m) => [m.name, m.value]));
    const timing = await p.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      const scripts = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((r) => r.initiatorType === "script");
      return {
        serverFirstByte: nav.responseStart - nav.requestStart,
        htmlDone: nav.responseEnd,
        domContentLoaded: nav.domContentLoadedEventEnd,
        htmlBytes: nav.decodedBodySize,
        jsBytes: scripts.reduce((n, r) => n + r.decodedBodySize, 0),
      };
    });
    const rendered = await p.locator(".react-flow__node").count();
    await p.close();
    return {
      loaded,
      interactive,
      rendered,
      ...timing,
      cpuMs: (metrics.TaskDuration ?? 0) * 1000,
      scriptMs: (metrics.ScriptDuration ?? 0) * 1000,
      styleLayoutMs: ((metrics.RecalcStyleDuration ?? 0) + (metrics.LayoutDuration ?? 0)) * 1000,
    };
  };
  type Run = Awaited<ReturnType<typeof measure>>;
  // Warm: the route's chunks and the database's caches.
  await measure(board.id, true);
  await measure(empty.id, false);
  const full: Run[] = [];
  const bare: Run[] = [];
  // Alternate the two so both see the same load on a shared machine.
  for (let i = 0; i < RUNS; i++) {
    full.push(await measure(board.id, true));
    bare.push(await measure(empty.id, false));
  }
  // The data alone: get_board over REST (what the page reads through callTool), without the page's render.
  const readTimes = async (id: string) => {
    const times: number[] = [];
    for (let i = 0; i < RUNS + 1; i++) {
      const started = performance.now();
      await tool("get_board", { id });
      times.push(performance.now() - started);
    }
    return times.slice(1);
  };
  const readFull = await readTimes(board.id);
  const readBare = await readTimes(empty.id);
  // BENCH_PROFILE=<file>: one more load of the full board with a JavaScript CPU profile of the page (open in Chromium's DevTools).
  if (process.env.BENCH_PROFILE) {
    await measure(board.id, true, process.env.BENCH_PROFILE);
    console.log(`page CPU profile: ${process.env.BENCH_PROFILE}`);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const of = (runs: Run[], key: keyof Run) => median(runs.map((r) => r[key] as number));
  const ms = (n: number) => `${n.toFixed(0).padStart(5)} ms`;
  const kb = (n: number) => `${(n / 1024).toFixed(0).padStart(5)} KB`;
  const loaded = of(full, "loaded");
  const interactive = of(full, "interactive");
  console.log(`\nbench:boards — database ${db}, a board of ${CARDS} creative cards, Chromium 1440 × 900, median of ${RUNS}`);
  console.log(`cards on the canvas   ${ms(loaded)} after navigation start (${full[0]!.rendered} nodes rendered in view)`);
  console.log(
    `interactive           ${ms(interactive)} (a click on a card has selected it)  target < ${TARGET_MS} ms: ${interactive < TARGET_MS ? "met" : "NOT met"}`,
  );
  console.log(`\n                          ${CARDS}-card board   empty board (baseline, same run)`);
  const line = (label: string, key: keyof Run, fmt = ms) => console.log(`${label.padEnd(26)}${fmt(of(full, key))}     ${fmt(of(bare, key))}`);
  console.log(`${"get_board over REST".padEnd(26)}${ms(median(readFull))}     ${ms(median(readBare))}`);
  line("server first byte", "serverFirstByte");
  line("HTML done", "htmlDone");
  line("DOMContentLoaded", "domContentLoaded");
  line("loaded", "loaded");
  line("interactive", "interactive");
  line("main thread CPU (load)", "cpuMs");
  line("  of which script", "scriptMs");
  line("  of which style + layout", "styleLayoutMs");
  line("HTML + RSC payload", "htmlBytes", kb);
  line("JavaScript", "jsBytes", kb);
  console.log(`interactive / baseline    ${(interactive / of(bare, "interactive")).toFixed(2)}×`);
} finally {
  await browser.close();
  await stop();
}
