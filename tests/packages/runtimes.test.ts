import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { chromium } from "@playwright/test";
import * as esbuild from "esbuild";
import { EdgeRuntime } from "edge-runtime";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signatureHeader } from "@/lib/webhooks/sign";
import { createTenant } from "../helpers/fixtures";
import { pngImage } from "../helpers/media-fixtures";
import { packWorkspace, ROOT, run } from "./pack-helpers";
import type { ExerciseConfig, ExerciseResult } from "./runtimes/exercise";

/**
 * The client library beyond Node: the packed tarball, installed the way each runtime's users
 * install it, runs one consumer (runtimes/exercise.ts) against the running server under Bun
 * (ESM import and CommonJS require), Deno (an npm: specifier from a registry, type-checked),
 * Vercel's edge runtime (a bundle in an EdgeRuntime VM: web APIs only) and Chromium (a bundle on
 * a page of another origin, so every call goes through CORS). The runtimes come from npm
 * (devDependencies bun, deno, edge-runtime); Chromium from Debian, as for the e2e suite.
 */

const ws = packWorkspace("runtimes");
const BIN = path.join(ROOT, "node_modules/.bin");
const EXERCISE = path.join(__dirname, "runtimes/exercise.ts");
let tarball: string;
let project: string;
let png: string;

/** A fresh workspace and everything the consumer needs, for one runtime (`withFile`: it has a file system). */
async function configFor(runtime: string, withFile = false): Promise<ExerciseConfig> {
  const tenant = await createTenant();
  const body = JSON.stringify({ id: `evt_${runtime}`, type: "test", createdAt: new Date().toISOString(), data: { runtime } });
  const secret = `whsec_${runtime}_secret`;
  const config: ExerciseConfig = {
    runtime,
    baseUrl: inject("baseUrl"),
    apiKey: tenant.key,
    png,
    webhook: { body, header: signatureHeader(secret, body), secret },
  };
  if (withFile) {
    config.pngPath = path.join(ws.dir, `${runtime}.png`);
    fs.writeFileSync(config.pngPath, Buffer.from(png, "base64"));
  }
  return config;
}

/** What every runtime must have done: the same observable results, named after the runtime. */
function expectExercised(result: ExerciseResult, config: ExerciseConfig) {
  const r = config.runtime;
  const names = [`${r}-blob.png`, `${r}-stream.png`, ...(config.pngPath ? [`${r}-path.png`] : [])];
  expect(result).toMatchObject({
    toolsRevalidated: true,
    folder: `${r} folder`,
    uploads: names.map((fileName) => ({ fileName, status: "completed" })),
    creatives: [...names].sort(),
    library: [...names].sort(),
    streamed: [...names].sort(),
    error: { code: "unauthorized", status: 401, requestId: true },
    webhookEventId: `evt_${r}`,
    tamperedWebhook: "bad_signature",
  });
  // Without a file system, a path is refused before anything is sent, saying what to pass instead.
  expect(result.pathError).toBe(config.pngPath ? null : "Uploading from a file path needs node:fs (Node, Deno, Bun); pass { data } or { stream } instead");
  const bytes = Buffer.from(config.png, "base64").length;
  expect(result.progress).toEqual(names.map(() => bytes));
  expect(result.tools).toBeGreaterThan(10);
}

function lastJsonLine(stdout: string): ExerciseResult & { entry?: string } {
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

/** Bundles an entry that imports the installed package (as an app's bundler would) into one script. */
async function bundle(entry: string, options: esbuild.BuildOptions): Promise<string> {
  const result = await esbuild.build({ entryPoints: [entry], bundle: true, write: false, format: "iife", target: "es2022", logLevel: "error", ...options });
  return result.outputFiles![0]!.text;
}

describe.concurrent("the client library in other runtimes", () => {
  beforeAll(async () => {
    tarball = await ws.pack("packages/sdk");
    await ws.serve([tarball]);
    png = (await pngImage(12, 12)).toString("base64");
    project = await ws.project("bun", "module", tarball);
    fs.copyFileSync(EXERCISE, path.join(project, "exercise.ts"));
  }, 120_000);
  afterAll(() => ws.close());

  it("Bun: imports the ESM build and requires the CommonJS build", async () => {
    fs.writeFileSync(
      path.join(project, "esm.ts"),
      `import * as sdk from "@adloom/sdk";
import { exercise } from "./exercise.ts";
const result = await exercise(sdk, JSON.parse(process.env.ADLOOM_EXERCISE!));
console.log(JSON.stringify({ ...result, entry: Bun.resolveSync("@adloom/sdk", import.meta.dir) }));
`,
    );
    fs.writeFileSync(
      path.join(project, "cjs.cjs"),
      `const sdk = require("@adloom/sdk");
const { exercise } = require("./exercise.ts");
exercise(sdk, JSON.parse(process.env.ADLOOM_EXERCISE)).then(
  (result) => console.log(JSON.stringify({ ...result, entry: require.resolve("@adloom/sdk") })),
  (err) => { console.error(err); process.exit(1); },
);
`,
    );
    const [esmConfig, cjsConfig] = await Promise.all([configFor("bun-esm", true), configFor("bun-cjs", true)]);
    const bun = (file: string, config: ExerciseConfig) =>
      run(path.join(BIN, "bun"), ["run", file], {
        cwd: project,
        env: { PATH: process.env.PATH, NODE_ENV: "production", ADLOOM_EXERCISE: JSON.stringify(config), BUN_INSTALL_CACHE_DIR: path.join(ws.dir, "bun-cache") },
      });
    const [esm, cjs] = await Promise.all([bun("esm.ts", esmConfig), bun("cjs.cjs", cjsConfig)]);
    const esmResult = lastJsonLine(esm.stdout);
    expectExercised(esmResult, esmConfig);
    expect(esmResult.entry).toMatch(/node_modules\/@adloom\/sdk\/dist\/esm\/index\.js$/);
    const cjsResult = lastJsonLine(cjs.stdout);
    expectExercised(cjsResult, cjsConfig);
    expect(cjsResult.entry).toMatch(/node_modules\/@adloom\/sdk\/dist\/cjs\/index\.js$/);
  }, 120_000);

  it("Deno: installs npm:@adloom/sdk from a registry, type-checks the consumer strictly and runs it", async () => {
    const dir = path.join(ws.dir, "deno");
    fs.mkdirSync(dir);
    fs.copyFileSync(EXERCISE, path.join(dir, "exercise.ts"));
    fs.writeFileSync(
      path.join(dir, "deno.json"),
      JSON.stringify({
        imports: { "@adloom/sdk": "npm:@adloom/sdk@1.0.0" },
        compilerOptions: { strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true },
      }),
    );
    fs.writeFileSync(
      path.join(dir, "main.ts"),
      `import * as sdk from "@adloom/sdk";
import { exercise } from "./exercise.ts";
console.log(JSON.stringify(await exercise(sdk, JSON.parse(Deno.env.get("ADLOOM_EXERCISE")!))));
`,
    );
    const config = await configFor("deno", true);
    const host = new URL(config.baseUrl).host;
    const args = ["run", "--check", `--allow-net=${host}`, "--allow-env=ADLOOM_EXERCISE", `--allow-read=${config.pngPath}`, "main.ts"];
    const { stdout } = await run(path.join(BIN, "deno"), args, {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        HOME: dir,
        ADLOOM_EXERCISE: JSON.stringify(config),
        NPM_CONFIG_REGISTRY: ws.registryUrl(),
        DENO_DIR: path.join(dir, ".deno"),
        DENO_NO_UPDATE_CHECK: "1",
        NO_COLOR: "1",
      },
    });
    expectExercised(lastJsonLine(stdout), config);
  }, 120_000);

  it("edge runtime: the bundled library runs in an EdgeRuntime VM, which has web APIs only", async () => {
    const entry = path.join(project, "edge.ts");
    fs.writeFileSync(
      entry,
      `import * as sdk from "@adloom/sdk";
import { exercise } from "./exercise.ts";
(globalThis as Record<string, unknown>).runExercise = (config: never) => exercise(sdk, config).then((result) => JSON.stringify(result));
`,
    );
    // Vercel's resolution for edge functions: edge-light/worker/browser before the module defaults.
    const code = await bundle(entry, { platform: "neutral", conditions: ["edge-light", "worker", "browser"], mainFields: ["module", "main"] });
    const runtime = new EdgeRuntime({ initialCode: code });
    expect(runtime.evaluate("[typeof process, typeof require, typeof Buffer, typeof EdgeRuntime].join()")).toBe("undefined,undefined,undefined,string");
    const config = await configFor("edge");
    const result = JSON.parse(await runtime.evaluate<Promise<string>>(`runExercise(${JSON.stringify(config)})`)) as ExerciseResult;
    expectExercised(result, config);
  }, 120_000);

  it("Chromium: the browser bundle calls the API from another origin with a Bearer key (CORS)", async () => {
    const entry = path.join(project, "browser.ts");
    fs.writeFileSync(
      entry,
      `import * as sdk from "@adloom/sdk";
import { exercise } from "./exercise.ts";
(window as unknown as Record<string, unknown>).runExercise = (config: never) => exercise(sdk, config);
`,
    );
    const script = await bundle(entry, { platform: "browser" });
    const page = http.createServer((req, res) => {
      if (req.url === "/app.js") return void res.writeHead(200, { "content-type": "text/javascript" }).end(script);
      res.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><title>consumer</title><script src="/app.js"></script>');
    });
    await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
    // localhost vs the API's 127.0.0.1 (and another port): a different origin, so the browser enforces CORS.
    const origin = `http://localhost:${(page.address() as AddressInfo).port}`;
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    });
    try {
      const tab = await browser.newPage();
      const consoleErrors: string[] = [];
      tab.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
      await tab.goto(origin);
      const config = await configFor("chromium");
      expect(new URL(config.baseUrl).origin).not.toBe(origin);
      const result = await tab.evaluate((c) => (window as unknown as { runExercise: (c: unknown) => Promise<ExerciseResult> }).runExercise(c), config);
      expectExercised(result, config);
      // The only console error is the browser reporting the deliberate 401.
      expect(consoleErrors.filter((e) => !e.includes("401"))).toEqual([]);
    } finally {
      await browser.close();
      await new Promise((resolve) => page.close(resolve));
    }
  }, 120_000);
});
