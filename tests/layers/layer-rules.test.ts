import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkLayers } from "../../scripts/check-layers.mjs";

// The layer rules (.dependency-cruiser.cjs) run against small trees laid out like the repository,
// so a rule that stops matching (a renamed folder, a broken pattern) fails here, not silently.
const root = path.resolve(import.meta.dirname, "../..");
const fixtures: string[] = [];

function fixtureTree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-layers-"));
  fixtures.push(dir);
  const tsconfig = { compilerOptions: { module: "esnext", moduleResolution: "bundler", baseUrl: ".", paths: { "@/*": ["./*"] } } };
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
  fs.symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const FORBIDDEN: [rule: string, from: string, to: string][] = [
  ["domain-not-edge", "lib/uploads/uploads.ts", "lib/http/operation.ts"],
  ["domain-not-edge", "lib/webhooks/endpoint.ts", "lib/tools/catalog.ts"],
  ["domain-not-next", "lib/session/principal.ts", "next/headers"],
  ["domain-jobs-through-outbox", "lib/events/emit.ts", "lib/jobs/embedded/signals.ts"],
  ["infra-not-domain", "lib/config.ts", "lib/webhooks/retry-schedule.ts"],
  ["infra-not-domain", "lib/jobs/embedded/index.ts", "inngest/functions/index.ts"],
  ["tools-not-edge", "lib/tools/definitions/uploads.ts", "lib/http/operation.ts"],
  ["jobs-not-edge", "inngest/functions/upload-push.ts", "lib/api/v1/uploads.ts"],
  ["neutral-stays-neutral", "lib/pagination/cursor.ts", "lib/db/client.ts"],
  ["tools-not-edge", "lib/read-models/library.ts", "lib/dashboard/current.ts"],
  ["dashboard-through-catalog", "app/dashboard/library/actions.ts", "lib/folders/library-folders.ts"],
  ["dashboard-through-catalog", "app/dashboard/settings/team/page.tsx", "lib/db/client.ts"],
  ["dashboard-through-catalog", "components/review/status-badge.tsx", "lib/review/status.ts"],
  ["packages-through-public-api", "lib/db/client.ts", "packages/pglite-driver/src/pglite-internals.ts"],
  ["packages-not-app", "packages/pglite-driver/src/index.ts", "lib/services.ts"],
  ["packages-through-public-api", "lib/server/start-services.ts", "packages/job-runner/src/runner.ts"],
  ["packages-not-app", "packages/job-runner/src/runner.ts", "lib/db/client.ts"],
  ["sandbox-through-public-api", "lib/admin/commands.ts", "lib/platforms/sandbox/delivery.ts"],
  ["sandbox-through-the-contract", "lib/ads/planner-stats.ts", "lib/platforms/sandbox/index.ts"],
  ["sandbox-through-the-contract", "lib/moderation/pull.ts", "lib/platforms/sandbox/operator.ts"],
];

/** One tree holding every forbidden import above (each target exists, so only a rule can object). */
function forbiddenTree(): string {
  const files: Record<string, string> = {};
  for (const [, from, to] of FORBIDDEN) {
    const specifier = to.startsWith("next/") ? to : `@/${to.replace(/\.ts$/, "")}`;
    files[from] = `import * as target from "${specifier}";\nexport const used = target;\n`;
  }
  for (const [, , to] of FORBIDDEN) if (!to.startsWith("next/")) files[to] ??= "export const value = 1;\n";
  return fixtureTree(files);
}

afterAll(() => {
  for (const dir of fixtures) fs.rmSync(dir, { recursive: true, force: true });
});

describe("layer rules", () => {
  it("accept imports that go down the layers", () => {
    const dir = fixtureTree({
      "lib/http/operation.ts": 'import { listUploads } from "@/lib/uploads/uploads";\nexport const op = listUploads;\n',
      "lib/uploads/uploads.ts":
        'import { toPage } from "@/lib/pagination/cursor";\nimport { sendEvent } from "@/lib/jobs/outbox";\nexport const listUploads = [toPage, sendEvent];\n',
      "lib/pagination/cursor.ts": 'import { badRequest } from "@/lib/errors";\nexport const toPage = badRequest;\n',
      "lib/errors.ts": "export const badRequest = 1;\n",
      "lib/jobs/outbox.ts": 'import { getDb } from "@/lib/db/client";\nexport const sendEvent = getDb;\n',
      "lib/db/client.ts": "export const getDb = 1;\n",
      // The dashboard: a tool call, a read model, its glue, a schema module, and any module for its types only.
      "app/dashboard/library/actions.ts":
        'import { callTool } from "@/lib/tools/call";\nimport { listVisibleFolders } from "@/lib/read-models/library";\n' +
        'import { requirePrincipal } from "@/lib/dashboard/current";\nimport { REVIEW_STATUSES } from "@/lib/review/schemas";\n' +
        'import type { Folder } from "@/lib/folders/library-folders";\nexport const uses = [callTool, listVisibleFolders, requirePrincipal, REVIEW_STATUSES];\nexport type F = Folder;\n',
      "lib/tools/call.ts": "export const callTool = 1;\n",
      "lib/read-models/library.ts": 'import { getDb } from "@/lib/db/client";\nexport const listVisibleFolders = getDb;\n',
      "lib/dashboard/current.ts": "export const requirePrincipal = 1;\n",
      "lib/review/schemas.ts": "export const REVIEW_STATUSES = 1;\n",
      "lib/folders/library-folders.ts": "export type Folder = { id: string };\nexport const renameFolder = 1;\n",
      // An HTTP route hands its request to the pipeline (REST, MCP), not to the dashboard's rules.
      "app/api/v1/route.ts": 'import { op } from "@/lib/http/operation";\nexport const GET = op;\n',
    });
    const result = checkLayers({ cwd: dir });
    expect(result.output).toContain("no dependency violations found");
    expect(result.ok).toBe(true);
  });

  it("refuse every forbidden import, naming the rule and the import", () => {
    const result = checkLayers({ cwd: forbiddenTree() });
    expect(result.ok).toBe(false);
    for (const [rule, from, to] of FORBIDDEN) {
      // A package resolves through the fixture's node_modules link, to a path outside the tree.
      if (to.startsWith("next/")) expect(result.output).toMatch(new RegExp(`error ${rule}: ${from} → \\S*node_modules/${to}\\.js`));
      else expect(result.output).toContain(`error ${rule}: ${from} → ${to}`);
    }
    expect(result.output).toContain(`${FORBIDDEN.length} dependency violations (${FORBIDDEN.length} errors`);
  });

  // lib/generated (the Prisma client) is outside the cruise, so the rules cannot see an import of it:
  // the job runner's sources are read instead. Only its own files, node built-ins and its peers.
  it("keep the job runner package free of the app: relative, node: and its peer dependencies only", () => {
    const dir = path.join(root, "packages/job-runner");
    const peers = Object.keys(JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).peerDependencies);
    const files = fs.readdirSync(path.join(dir, "src"), { recursive: true, encoding: "utf8" }).filter((f) => /\.(ts|mjs|js)$/.test(f));
    expect(files).toContain("index.ts");
    const outside: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(path.join(dir, "src", file), "utf8");
      for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
        const inside = specifier!.startsWith("./") && !path.normalize(path.join(path.dirname(file), specifier!)).startsWith("..");
        const allowed =
          inside || specifier!.startsWith("node:") || peers.some((p) => specifier === p || specifier!.startsWith(`${p}/`)) || specifier === "vitest";
        if (!allowed) outside.push(`${file} → ${specifier}`);
      }
    }
    expect(outside).toEqual([]);
  });
});
