import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { pullLeads, seedLeads } from "../leads/helpers";
import { packWorkspace, ROOT, run } from "./pack-helpers";

/**
 * The packages as an outsider gets them: `npm pack` tarballs installed into fresh projects,
 * type-checked under the strictest settings in every module system, run with plain node
 * against the running server, and the CLI installed globally (tests/global-setup.ts builds dist).
 * tests/packages/runtimes.test.ts runs the library under Bun, Deno, an edge runtime and Chromium.
 */

const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");
// Each project test below installs tarballs and runs the compiler in a fresh project: 30-93 s beside the rest of the
// suite on 28 Nov, at 1.6 times the usual pace; 240 s leaves room for a machine at two and a half.
const ws = packWorkspace("packaging");
const work = ws.dir;
let tarballs: { sdk: string; cli: string };
let tenant: Tenant;

/** A consumer's code: typed resources, typed tool calls (wrong arguments must not compile), errors. */
const consumer = (body: string) => `import { Adloom, AdloomError, TOOL_NAMES, type Creative, type ListCreativesResult } from "@adloom/sdk";

${body.replace(
  "BODY",
  `
  const baseUrl: string | undefined = process.env.ADLOOM_BASE_URL;
  const adloom = new Adloom({ apiKey: process.env.ADLOOM_API_KEY ?? "", baseUrl });
  const account = await adloom.account.get();
  const page: ListCreativesResult = await adloom.tools.call("list_creatives", { limit: 1 });
  const first: Creative | undefined = page.creatives[0];
  // @ts-expect-error limit is an integer in list_creatives' schema
  void (() => adloom.tools.call("list_creatives", { limit: "ten" }));
  // @ts-expect-error get_upload needs its id
  void (() => adloom.tools.call("get_upload"));
  const { folder } = await adloom.tools.call("create_folder", { name: "From a consumer" });
  let code = "";
  try {
    await new Adloom({ apiKey: "adl_wrong", baseUrl, maxRetries: 0 }).account.get();
  } catch (err) {
    if (err instanceof AdloomError) code = err.code;
  }
  console.log(JSON.stringify({ accountId: account.id, creatives: page.creatives.length, first: first?.id ?? null, folder: folder.name, code, tools: TOOL_NAMES.length }));
`,
)}
`;

const STRICT = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: false,
  target: "ES2022",
  lib: ["ES2022", "DOM"],
};

async function project(name: string, options: { type: "module" | "commonjs"; compilerOptions: Record<string, unknown>; source: string }) {
  const dir = await ws.project(name, options.type, tarballs.sdk);
  fs.writeFileSync(path.join(dir, "consumer.ts"), options.source);
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { ...STRICT, ...options.compilerOptions, typeRoots: [path.join(ROOT, "node_modules/@types")], types: ["node"], outDir: "out" },
      files: ["consumer.ts"],
    }),
  );
  return dir;
}

async function typecheck(dir: string) {
  const result = await run(process.execPath, [TSC, "-p", dir], { cwd: dir }).catch((err: { stdout: string }) => ({ stdout: err.stdout, failed: true }));
  expect(result.stdout, `tsc in ${path.basename(dir)}`).toBe("");
}

async function runNode(file: string, env: Record<string, string> = {}) {
  const { stdout } = await run(process.execPath, [file], {
    env: { PATH: process.env.PATH, NODE_ENV: "production", ADLOOM_API_KEY: tenant.key, ADLOOM_BASE_URL: inject("baseUrl"), ...env },
  });
  return stdout;
}

describe("the packages as an outsider installs them", () => {
  beforeAll(async () => {
    tarballs = { sdk: await ws.pack("packages/sdk"), cli: await ws.pack("packages/cli") };
    await ws.serve([tarballs.sdk, tarballs.cli]);
    tenant = await createTenant();
  }, 240_000);
  afterAll(() => ws.close());

  it("ships only built files: ESM, CommonJS and declarations, no sources, tests or install scripts", async () => {
    const { stdout } = await run("tar", ["-tzf", tarballs.sdk]);
    const files = stdout.trim().split("\n");
    expect(files).toContain("package/dist/esm/index.js");
    expect(files).toContain("package/dist/cjs/index.js");
    expect(files).toContain("package/dist/cjs/index.d.ts");
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
    expect(files.some((f) => f.includes("test"))).toBe(false);
    for (const tarball of [tarballs.sdk, tarballs.cli]) {
      const manifest = JSON.parse((await run("tar", ["-xOzf", tarball, "package/package.json"])).stdout);
      expect(manifest.scripts?.postinstall ?? manifest.scripts?.install).toBeUndefined();
    }
    const sdkManifest = JSON.parse((await run("tar", ["-xOzf", tarballs.sdk, "package/package.json"])).stdout);
    expect(sdkManifest.dependencies ?? {}).toEqual({});
    const cliManifest = JSON.parse((await run("tar", ["-xOzf", tarballs.cli, "package/package.json"])).stdout);
    expect(Object.keys(cliManifest.dependencies)).toEqual(["@adloom/sdk"]);
  });

  it("is clean for publint (both packages) and @arethetypeswrong/cli (the library)", async () => {
    for (const dir of ["packages/sdk", "packages/cli"]) {
      const lint = await run(process.execPath, [path.join(ROOT, "node_modules/publint/src/cli.js"), "--strict", path.join(ROOT, dir)], { cwd: ROOT });
      expect(lint.stdout, dir).toContain("All good!");
    }
    const attw = await run(process.execPath, [path.join(ROOT, "node_modules/@arethetypeswrong/cli/dist/index.js"), tarballs.sdk, "--format", "json"], {
      cwd: ROOT,
    });
    expect(JSON.parse(attw.stdout).problems).toEqual({});
  }, 240_000);

  it("type-checks under NodeNext (ESM) with strict + exactOptionalPropertyTypes and runs with plain node", async () => {
    const dir = await project("nodenext", {
      type: "module",
      compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext" },
      source: consumer("BODY"),
    });
    await typecheck(dir);
    const out = JSON.parse(await runNode(path.join(dir, "out/consumer.js")));
    expect(out).toMatchObject({ accountId: tenant.ownerUserId, creatives: 0, first: null, folder: "From a consumer", code: "unauthorized" });
    expect(out.tools).toBeGreaterThan(10);
  }, 240_000);

  it("type-checks under Bundler resolution", async () => {
    const dir = await project("bundler", {
      type: "module",
      compilerOptions: { module: "ESNext", moduleResolution: "Bundler", noEmit: true },
      source: consumer("BODY"),
    });
    await typecheck(dir);
  }, 240_000);

  it("type-checks and runs as CommonJS (require)", async () => {
    const dir = await project("commonjs", {
      type: "commonjs",
      compilerOptions: { module: "CommonJS", moduleResolution: "Node10" },
      source: consumer("async function main() {BODY}\nvoid main();"),
    });
    await typecheck(dir);
    expect(fs.readFileSync(path.join(dir, "out/consumer.js"), "utf8")).toContain('require("@adloom/sdk")');
    const out = JSON.parse(await runNode(path.join(dir, "out/consumer.js")));
    expect(out).toMatchObject({ accountId: tenant.ownerUserId, code: "unauthorized" });
  }, 240_000);

  it("installs the CLI globally from its tarball (the SDK from the registry) and runs adloom me and adloom leads export", async () => {
    const prefix = path.join(work, "global");
    await ws.npm(["install", "-g", "--prefix", prefix, tarballs.cli], work);
    const bin = path.join(prefix, "bin/adloom");
    expect(fs.existsSync(bin)).toBe(true);
    const { stdout } = await run(bin, ["me", "--json"], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        ADLOOM_API_KEY: tenant.key,
        ADLOOM_BASE_URL: inject("baseUrl"),
        ADLOOM_CONFIG_DIR: path.join(work, "cli-config"),
      },
    });
    expect(JSON.parse(stdout).account.id).toBe(tenant.ownerUserId);
    // A streamed download through the installed command: the leads CSV, byte for byte what the API serves.
    await seedLeads(tenant.workspaceId, 3);
    await pullLeads(tenant.workspaceId);
    const out = path.join(work, "leads.csv");
    await run(bin, ["leads", "export", "--out", out], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        ADLOOM_API_KEY: tenant.key,
        ADLOOM_BASE_URL: inject("baseUrl"),
        ADLOOM_CONFIG_DIR: path.join(work, "cli-config"),
      },
    });
    const served = Buffer.from(
      await (await fetch(`${inject("baseUrl")}/api/v1/leads/export.csv`, { headers: { Authorization: `Bearer ${tenant.key}` } })).arrayBuffer(),
    );
    expect(served.toString("utf8").trim().split("\r\n")).toHaveLength(4);
    expect(Buffer.compare(fs.readFileSync(out), served)).toBe(0);
    // Only the CLI and its one dependency were installed.
    const installed = fs.readdirSync(path.join(prefix, "lib/node_modules/@adloom/cli/node_modules/@adloom"));
    expect(installed).toEqual(["sdk"]);
  }, 180_000);
});
