import fc from "fast-check";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { HTTP_EDGE_DEFAULTS } from "@/lib/http-edge-defaults.mjs";
import { admin, api, createTenant, type Tenant } from "../helpers/fixtures";
import { callTool, readyCreative, toolResult } from "../tools/helpers";
import { encodeUrlComponent, hostileString, hostileValue, toJsonText } from "./hostile";
import { arbitraryFor, type GenerationContext, type JsonSchema } from "./schema-arbitrary";

/**
 * Hostile requests to every REST operation of the OpenAPI document and every tool of the catalog
 * (both read at run time, so new operations and tools are fuzzed without touching this file).
 * Fails on any 5xx, on any transport error (no request is sent twice), on a head over the size limit not answered
 * 431, on any request that takes longer than REQUEST_TIMEOUT_MS, and on any change
 * visible in a second workspace whose ids the requests aim at.
 * Seeded and with a fixed number of cases per target, so a failure replays exactly.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
// Fixed counts sized for ~90 s on 2 cores once the catalog holds ~85 tools (about 25 requests/s here).
const CASES_PER_OPERATION = Number(process.env.FUZZ_CASES ?? 12);
const CASES_PER_TOOL = Number(process.env.FUZZ_CASES ?? 8);
const REQUEST_TIMEOUT_MS = 10_000;
const CONCURRENCY = 4;
/** Keys per fuzzed workspace: the per-key rate limit must not turn the run into 429s. */
const KEYS = 4;

interface Case {
  target: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

interface Failure {
  target: string;
  request: string;
  outcome: string;
}

const base = () => inject("baseUrl");

function describeCase(c: Case): string {
  const body = typeof c.body === "string" ? c.body : c.body ? `<${c.body.length} bytes>` : "";
  return `${c.method} ${c.path.slice(0, 200)} ${JSON.stringify(c.headers).slice(0, 200)} ${body.slice(0, 300)}`;
}

/**
 * The documented rule for oversized heads (docs/operations.md, "Limits and input checks"): a head over
 * HTTP_MAX_HEADER_BYTES is answered 431. Node's parser does not count line endings, and fetch adds headers
 * of its own (Host, Connection, User-Agent, Accept...), so a head within CLIENT_HEADERS_ALLOWANCE of the
 * limit may go either way; outside that band the answer is certain. No request is ever sent twice.
 */
const MAX_HEAD_BYTES = HTTP_EDGE_DEFAULTS.HTTP_MAX_HEADER_BYTES;
const CLIENT_HEADERS_ALLOWANCE = 1024;

/** The bytes of the head this test itself writes: the request line and its own headers. */
function ownHeadBytes(c: Case, key: string): number {
  const headers = { Authorization: `Bearer ${key}`, ...c.headers };
  return Buffer.byteLength(
    `${c.method} ${c.path} HTTP/1.1\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("")}\r\n`,
  );
}

/** 431 when the head must be refused, any other answer when it must be read, either near the limit. */
function headRule(c: Case, key: string): "refused" | "read" | "either" {
  const own = ownHeadBytes(c, key);
  if (own > MAX_HEAD_BYTES) return "refused";
  return own + CLIENT_HEADERS_ALLOWANCE <= MAX_HEAD_BYTES ? "read" : "either";
}

async function send(c: Case, key: string): Promise<{ status: number; ms: number } | { error: string; ms: number }> {
  const started = Date.now();
  try {
    const res = await fetch(base() + c.path, {
      method: c.method,
      headers: { Authorization: `Bearer ${key}`, ...c.headers },
      body: c.body as BodyInit | undefined,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    // A live event stream never ends by design: its answer is the status and headers, sent at once.
    if (res.ok && res.headers.get("content-type")?.startsWith("text/event-stream")) await res.body?.cancel();
    else await res.arrayBuffer();
    return { status: res.status, ms: Date.now() - started };
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return {
      error:
        (err as Error).name === "TimeoutError" ? `no answer within ${REQUEST_TIMEOUT_MS} ms` : `${String(err)} (${cause?.code ?? ""} ${cause?.message ?? ""})`,
      ms: Date.now() - started,
    };
  }
}

let oversizedHeads = 0;

/** Runs the cases a few at a time; collects every 5xx, hang and transport failure. */
async function runCases(cases: Case[], keys: string[]): Promise<Failure[]> {
  const failures: Failure[] = [];
  let next = 0;
  const worker = async (w: number) => {
    for (;;) {
      const i = next++;
      if (i >= cases.length) return;
      const c = cases[i]!;
      const key = keys[(i + w) % keys.length]!;
      const rule = headRule(c, key);
      const outcome = await send(c, key);
      if (rule === "refused") oversizedHeads++;
      // Next answers a path with an empty segment ("//") by redirecting to the normalized URL, echoing a
      // query of many kilobytes in Location: an answer, only too big for undici to read.
      if ("error" in outcome && outcome.error.includes("UND_ERR_HEADERS_OVERFLOW")) continue;
      if ("error" in outcome) failures.push({ target: c.target, request: describeCase(c), outcome: outcome.error });
      else if (outcome.status >= 500) failures.push({ target: c.target, request: describeCase(c), outcome: `HTTP ${outcome.status}` });
      else if (rule === "refused" && outcome.status !== 431)
        failures.push({ target: c.target, request: describeCase(c), outcome: `HTTP ${outcome.status} for a head over ${MAX_HEAD_BYTES} bytes (431 expected)` });
      else if (rule === "read" && outcome.status === 431)
        failures.push({ target: c.target, request: describeCase(c), outcome: `HTTP 431 for a head well under ${MAX_HEAD_BYTES} bytes` });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, w) => worker(w)));
  return failures;
}

/** Everything the bystander workspace can see through the API, including every read-only tool that needs no arguments. */
async function snapshot(tenant: Tenant, tools: CatalogTool[]): Promise<Record<string, unknown>> {
  const call = api(tenant.key);
  const view: Record<string, unknown> = {};
  for (const path of ["/api/v1/me", "/api/v1/uploads", "/api/v1/creatives", "/api/v1/webhooks", "/api/v1/webhooks/deliveries"]) {
    view[path] = (await call(path)).body;
  }
  for (const creative of (view["/api/v1/creatives"] as { creatives: { id: string }[] }).creatives) {
    view[`copy ${creative.id}`] = (await call(`/api/v1/creatives/${creative.id}/copy`)).body;
  }
  for (const tool of tools.filter((t) => t.readOnly && !t.inputSchema.required?.length)) {
    view[`tool ${tool.name}`] = (await callTool(tenant.key, tool.name, {})).body;
  }
  return view;
}

interface CatalogTool {
  name: string;
  readOnly: boolean;
  inputSchema: JsonSchema;
}

const MUTATING = new Set(["post", "put", "patch", "delete"]);

/**
 * Generating all cases takes seconds of CPU. Done in one go, it would block the event loop long enough
 * for the server to close idle keep-alive connections while fetch's pool, whose timers cannot run, still
 * holds them: the next request would go out on a closed socket. So the generators give the loop a turn
 * after each target.
 */
const yieldToEventLoop = () => new Promise((resolve) => setImmediate(resolve));

async function operationCases(doc: any, ctx: GenerationContext, seed: number): Promise<Case[]> {
  const cases: Case[] = [];
  for (const [template, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const params: any[] = op.parameters ?? [];
      const pathParams = params.filter((p) => p.in === "path");
      const queryParams = params.filter((p) => p.in === "query");
      const bodyContent = op.requestBody?.content ?? {};
      const jsonSchema: JsonSchema | undefined = bodyContent["application/json"]?.schema;
      const multipart = "multipart/form-data" in bodyContent;
      const arb = fc.record({
        path: fc.tuple(...(pathParams.map((p) => arbitraryFor(p.schema, ctx, p.name)) as [fc.Arbitrary<unknown>])),
        query: fc.array(
          fc.tuple(
            queryParams.length
              ? fc.oneof(
                  fc.constantFrom(...queryParams.map((p) => p.name as string)),
                  hostileString.filter((s) => s.length < 50),
                )
              : hostileString.filter((s) => s.length < 50),
            fc.oneof(...(queryParams.length ? queryParams.map((p) => arbitraryFor(p.schema, ctx, p.name)) : [hostileValue])),
          ),
          { maxLength: 3 },
        ),
        body: jsonSchema ? arbitraryFor(jsonSchema, ctx) : fc.option(hostileValue, { freq: 3 }),
        rawBody: fc.option(fc.constantFrom("{", "[1,", '{"a":1}garbage', "\u0000", "null", '"\\ud800"', "{}".padStart(2_000_000, " ")), { freq: 6 }),
        idempotencyKey: fc.option(
          fc.oneof(
            fc.string({ minLength: 1, maxLength: 20 }),
            hostileString.filter((s) => /^[\x20-\x7e]*$/.test(s)),
          ),
          { freq: 3 },
        ),
        multipart: multipart ? multipartArbitrary(ctx) : fc.constant(null),
      });
      for (const sample of fc.sample(arb, { seed: seed + cases.length, numRuns: CASES_PER_OPERATION })) {
        let path = template;
        pathParams.forEach((p, i) => (path = path.replace(`{${p.name}}`, encodeUrlComponent(sample.path[i]))));
        const query = sample.query.map(([k, v]) => `${encodeUrlComponent(k)}=${encodeUrlComponent(v)}`).join("&");
        const headers: Record<string, string> = {};
        if (sample.idempotencyKey !== null && MUTATING.has(method)) headers["Idempotency-Key"] = sample.idempotencyKey;
        let body: string | Uint8Array | undefined;
        if (sample.multipart) {
          headers["Content-Type"] = `multipart/form-data; boundary=${sample.multipart.boundary}`;
          body = sample.multipart.body;
        } else if (MUTATING.has(method) && (jsonSchema || sample.body !== null || sample.rawBody !== null)) {
          headers["Content-Type"] = "application/json";
          body = sample.rawBody ?? toJsonText(sample.body);
        }
        cases.push({ target: `${method.toUpperCase()} ${template}`, method: method.toUpperCase(), path: query ? `${path}?${query}` : path, headers, body });
      }
      await yieldToEventLoop();
    }
  }
  return cases;
}

/** A multipart body with fields and files drawn from hostile values, sometimes cut short or malformed. */
function multipartArbitrary(ctx: GenerationContext) {
  const part = fc.oneof(
    fc.record({
      kind: fc.constant("field" as const),
      name: fc.constantFrom("platform", "folderId", "files", "other"),
      value: fc.oneof(
        fc.constantFrom("platform_a", "platform_b", ...ctx.ids),
        hostileString.filter((s) => s.length < 5_000),
      ),
    }),
    fc.record({
      kind: fc.constant("file" as const),
      name: fc.constantFrom("files", "file", "other"),
      fileName: fc.oneof(
        fc.constantFrom("a.png", "clip.mp4", "sandbox-fail.png"),
        hostileString.filter((s) => s.length < 2_000),
      ),
      type: fc.constantFrom("image/png", "video/mp4", "text/plain", "", "image/png\u0000"),
      data: fc.uint8Array({ maxLength: 200 }),
    }),
  );
  return fc.record({ parts: fc.array(part, { maxLength: 4 }), truncateAt: fc.option(fc.nat(), { freq: 3 }) }).map(({ parts, truncateAt }) => {
    const boundary = "fuzzBoundary7d";
    const chunks: Buffer[] = [];
    for (const p of parts) {
      if (p.kind === "field") {
        chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
      } else {
        const encoded = encodeUrlComponent(p.fileName);
        chunks.push(
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename*=UTF-8''${encoded}\r\nContent-Type: ${p.type}\r\n\r\n`),
        );
        chunks.push(Buffer.from(p.data), Buffer.from("\r\n"));
      }
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    const whole = Buffer.concat(chunks);
    return { boundary, body: new Uint8Array(truncateAt === null ? whole : whole.subarray(0, truncateAt % (whole.length + 1))) };
  });
}

async function toolCases(tools: CatalogTool[], ctx: GenerationContext, seed: number): Promise<Case[]> {
  const cases: Case[] = [];
  for (const [t, tool] of tools.entries()) {
    const arb = fc.record({
      args: fc.oneof({ weight: 5, arbitrary: arbitraryFor(tool.inputSchema, ctx) }, { weight: 1, arbitrary: hostileValue }),
      idempotencyKey: fc.option(fc.string({ minLength: 1, maxLength: 20 }), { freq: 4 }),
    });
    for (const sample of fc.sample(arb, { seed: seed + 7919 * (t + 1), numRuns: CASES_PER_TOOL })) {
      const headers: Record<string, string> = { "Content-Type": "application/json" };
      if (sample.idempotencyKey !== null) headers["Idempotency-Key"] = sample.idempotencyKey;
      cases.push({ target: `tool ${tool.name}`, method: "POST", path: `/api/v1/tools/${tool.name}`, headers, body: toJsonText(sample.args) });
    }
    await yieldToEventLoop();
  }
  return cases;
}

describe("fuzzing every operation and every tool", () => {
  let target: Tenant;
  let targetKeys: string[];
  let bystander: Tenant;
  let ids: string[];

  beforeAll(async () => {
    [target, bystander] = await Promise.all([createTenant(), createTenant()]);
    targetKeys = [target.key];
    for (let i = 1; i < KEYS; i++) targetKeys.push((await admin(["key", "create", "--workspace", target.workspaceId, "--user", target.ownerUserId])).key);
    // Each workspace holds a ready creative with copy, a folder and a webhook endpoint, so ids of both are real.
    ids = [];
    for (const tenant of [target, bystander]) {
      const { uploadId, creativeId } = await readyCreative(tenant.key);
      const copy = await api(tenant.key)(`/api/v1/creatives/${creativeId}/copy`, { method: "POST", json: { headline: "Hello", label: "fuzz" } });
      const folder = await toolResult(tenant.key, "create_folder", { name: "Fuzz folder" });
      await api(tenant.key)("/api/v1/webhooks", { method: "PUT", json: { url: "http://127.0.0.1:9/hook" } });
      // Subscribed to nothing: no background delivery changes the bystander's log while the fuzz runs.
      await api(tenant.key)("/api/v1/webhooks", { method: "PATCH", json: { events: [] } });
      ids.push(uploadId, creativeId, copy.body.id, folder.folder?.id ?? folder.id, tenant.workspaceId, tenant.ownerUserId, tenant.keyId);
    }
    ids = ids.filter((id): id is string => typeof id === "string");
  }, 120_000);

  it(`sends ${CASES_PER_OPERATION} hostile requests per REST operation and ${CASES_PER_TOOL} per tool: no 5xx, no hang, no change in another workspace`, async () => {
    const started = Date.now();
    const doc = await (await fetch(`${base()}/docs/openapi.json`)).json();
    const catalog = (await api(target.key)("/api/v1/tools")).body.tools as CatalogTool[];
    expect(catalog.length).toBeGreaterThan(0);
    const ctx: GenerationContext = {
      resolve: (ref) =>
        ref
          .split("/")
          .slice(1)
          .reduce((node: any, key) => node?.[key], doc) ?? {},
      ids,
    };
    const before = await snapshot(bystander, catalog);
    const cases = [...(await operationCases(doc, ctx, SEED)), ...(await toolCases(catalog, ctx, SEED))];
    const failures = await runCases(cases, targetKeys);
    const after = await snapshot(bystander, catalog);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `[fuzz] seed ${SEED}: ${cases.length} requests to ${Object.keys(doc.paths).length} paths and ${catalog.length} tools in ${seconds} s; ${failures.length} failures; ${oversizedHeads} heads over the limit answered by the 431 rule`,
    );
    expect(failures.slice(0, 20), `${failures.length} failing requests (seed ${SEED})`).toEqual([]);
    expect(after, "the other workspace changed").toEqual(before);
  }, 240_000);
});
