import fs from "node:fs";
import path from "node:path";

/**
 * "OpenAPI tells the truth": every test process records the status of each answer it gets
 * from our server (a wrapper around fetch, installed by tests/setup/record-statuses.ts), and
 * the run fails when the suite observed a status the OpenAPI document does not list for
 * that operation (checked in tests/global-setup.ts's teardown).
 */

export interface Observation {
  method: string;
  path: string;
  status: number;
}

const RECORDED_PATHS = /^\/api\/(v1|media)\//;

/** Wraps the global fetch so answers from `/api/v1` and `/api/media` are appended to `dir/<pid>.jsonl`. */
export function recordStatuses(dir: string): void {
  // Test files that share a worker's module graph (vitest.config.ts) run the setup file each: wrap fetch once.
  if ((globalThis.fetch as { recordsStatuses?: true }).recordsStatuses) return;
  const original = globalThis.fetch;
  const file = path.join(dir, `${process.pid}.jsonl`);
  globalThis.fetch = async (input, init) => {
    const response = await original(input, init);
    try {
      const request = input instanceof Request ? input : null;
      const url = new URL(request ? request.url : String(input));
      // Only the app's answers (they carry a request id): Node's HTTP server answers some malformed
      // requests itself (431 headers too large, 400 bad request line) before the app sees them.
      if (RECORDED_PATHS.test(url.pathname) && response.headers.has("x-request-id")) {
        const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
        fs.appendFileSync(file, JSON.stringify({ method, path: url.pathname, status: response.status } satisfies Observation) + "\n");
      }
    } catch {
      // Recording must never change what a test sees.
    }
    return response;
  };
  (globalThis.fetch as { recordsStatuses?: true }).recordsStatuses = true;
}

export function readObservations(dir: string): Observation[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .flatMap((f) => fs.readFileSync(path.join(dir, f), "utf8").split("\n").filter(Boolean))
    .map((line) => JSON.parse(line) as Observation);
}

type OpenApiDocument = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

/** `/api/v1/uploads/{id}` -> a pattern matching `/api/v1/uploads/upl_1`. */
const templatePattern = (template: string) => new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`);

/**
 * The observed (operation, status) pairs the document does not list, as `METHOD /template status`.
 * Requests that match no documented operation (unknown paths, unsupported methods) are not judged.
 */
export function undocumentedStatuses(doc: OpenApiDocument, observations: Observation[]): string[] {
  // Literal paths win over templated ones (/webhooks/deliveries before /webhooks/{id}-like templates).
  const templates = Object.keys(doc.paths)
    .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))
    .map((template) => ({ template, pattern: templatePattern(template) }));
  const problems = new Set<string>();
  for (const o of observations) {
    const match = templates.find((t) => t.pattern.test(o.path) && doc.paths[t.template]![o.method.toLowerCase()]);
    if (!match) continue;
    const operation = doc.paths[match.template]![o.method.toLowerCase()]!;
    if (!(String(o.status) in operation.responses)) problems.add(`${o.method} ${match.template} ${o.status}`);
  }
  return [...problems].sort();
}
