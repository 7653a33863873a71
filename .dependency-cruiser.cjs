// The layer rules of docs/architecture.md ("Layers"), checked by `npm run check:layers` and `npm test`.
// A path belongs to the first layer whose pattern matches it; paths in no layer (lib/cli, lib/sdk,
// tests, scripts, bench) are not constrained here.

/**
 * Surfaces: routes and pages, the request pipeline, REST operations, MCP, OpenAPI, dashboard glue, process start,
 * operator socket. lib/tools/call.ts runs one tool call for any surface (authorization, validation, idempotency):
 * it is a step of the pipeline, not a tool.
 */
const EDGE = "^(app|pages|components)/|^(auth|instrumentation|proxy)\\.ts$|^lib/(http|api|mcp|openapi|dashboard|server|admin)/|^lib/tools/call\\.ts$";
/** The tool catalog: one declaration per capability, calling domain functions. */
const TOOLS = "^lib/tools/(?!call\\.ts$)";
/** Read models: what pages read, authorized and folder-scoped as the matching tools are; beside the tools, above the domain. */
const READ_MODELS = "^lib/read-models/";
/** Job entry points: the Inngest functions and the serve handler that lists them. */
const JOB_ENTRIES = "^inngest/(functions/|serve\\.ts$)";
/**
 * Business rules, one folder per domain: every lib/ folder that is not a surface, the catalog, infrastructure,
 * neutral or client-side code, so a new domain folder is held to the rules without an edit here.
 */
const DOMAIN =
  "^lib/(?!(http|api|mcp|openapi|dashboard|server|admin|tools|read-models|db|storage|platforms|credentials|jobs|pagination|json|random|observability|cli|sdk|generated)/)[^/]+/";
/** What the domain runs on: database, media storage, ad platforms, stored-credential encryption, jobs, configuration, the service registry. */
const INFRA =
  "^lib/(db|storage|platforms|credentials|jobs|observability)/|^lib/(config|services|log)\\.ts$|^inngest/client\\.ts$|^packages/(pglite-driver|job-runner)/";
/** Shared by every layer and importing none: error values, ids, pagination. */
const NEUTRAL = "^lib/(errors|ids|money|text-input)\\.ts$|^lib/http-edge-defaults\\.mjs$|^lib/(pagination|json|random)/";
/**
 * Dashboard pages, layouts, components and server actions: app/ and components/ without the HTTP
 * routes (app/api, app/.well-known, app/docs hand their requests to lib/http, lib/api, lib/mcp).
 */
const DASHBOARD = "^(app|components)/";
const HTTP_ROUTES = "^app/(api|\\.well-known|docs)/";
/**
 * What the dashboard may import from lib/ (besides types): tool calls, its session glue, read
 * models, neutral modules, and modules of schemas and constants (no data, no writes).
 */
const DASHBOARD_MAY_USE = ["^lib/tools/call\\.ts$", "^lib/dashboard/", READ_MODELS, NEUTRAL, "^lib/[^/]+/([a-z-]+-schema|schemas|limits|types|scopes)\\.ts$"];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "packages-through-public-api",
      comment:
        "Platform packages (packages/pglite-driver, packages/job-runner) are reached only through their public API (the package's " +
        'index, its package.json "exports"): import "@adloom/pglite-driver" (or its "./lock", which the operator CLI loads ' +
        'without the database) or "@adloom/job-runner", never another file inside it.',
      severity: "error",
      from: { pathNot: "^packages/(pglite-driver|job-runner)/" },
      to: {
        path: "^packages/(pglite-driver|job-runner)/src/",
        pathNot: "^packages/(pglite-driver|job-runner)/src/index\\.ts$|^packages/pglite-driver/src/pglite-lock\\.ts$",
      },
    },
    {
      name: "packages-not-app",
      comment: "A platform package knows nothing of the app that uses it: no import of lib/, app/, inngest/ or another layer.",
      severity: "error",
      from: { path: "^packages/(pglite-driver|job-runner)/" },
      to: { path: "^(lib|app|inngest|pages|components)/" },
    },
    {
      name: "sandbox-through-public-api",
      comment:
        "The sandbox ad platform (lib/platforms/sandbox/) is a fenced module with its own schema and migrations: it is " +
        "reached only through its public files, index.ts (the adapter factory, server start) and operator.ts (operator " +
        "commands and tests), never a file inside it. Its tables are its own business.",
      severity: "error",
      from: { pathNot: "^lib/platforms/sandbox/" },
      to: { path: "^lib/platforms/sandbox/", pathNot: "^lib/platforms/sandbox/(index|operator)\\.ts$" },
    },
    {
      name: "sandbox-through-the-contract",
      comment:
        "Domain code, tools, jobs and pages reach the sandbox only through the platform contract: adapterFor(account) " +
        "from lib/platforms. Only the adapter factory (lib/platforms/index.ts), the server's start (lib/server) and " +
        "the operator commands (lib/admin) import the sandbox module.",
      severity: "error",
      from: { pathNot: "^lib/platforms/(sandbox/|index\\.ts$)|^lib/(server|admin)/" },
      to: { path: "^lib/platforms/sandbox/" },
    },
    {
      name: "domain-not-edge",
      comment:
        "Domain modules (lib/<domain>/) hold the business rules every surface shares: they must not import the request pipeline, " +
        "REST operations, MCP, OpenAPI, dashboard glue, tools, routes or job entry points. Move what both need to a neutral " +
        "module (lib/errors.ts, lib/pagination/) or pass it in.",
      severity: "error",
      from: { path: DOMAIN },
      to: { path: [EDGE, TOOLS, READ_MODELS, JOB_ENTRIES] },
    },
    {
      name: "domain-not-next",
      comment: "Domain modules run outside Next.js too (jobs, the operator CLI, tests): no next/* or next-auth; that glue lives in lib/dashboard or app/.",
      severity: "error",
      from: { path: DOMAIN },
      to: { path: "(^|/)node_modules/(next|next-auth)/" },
    },
    {
      name: "domain-jobs-through-outbox",
      comment:
        "The domain starts background work through lib/jobs/outbox.ts only, whatever runs the jobs (embedded runner or Inngest); " +
        "the runner's internals and the Inngest client are not its business.",
      severity: "error",
      from: { path: DOMAIN },
      to: { path: "^lib/jobs/|^inngest/client\\.ts$", pathNot: "^lib/jobs/outbox\\.ts$" },
    },
    {
      name: "infra-not-domain",
      comment:
        "Infrastructure (lib/db, lib/storage, lib/platforms, lib/jobs, lib/config.ts, lib/services.ts) knows no domain, tool, surface " +
        "or job function: take what it needs as a parameter (see startEmbeddedRunner(appJobs)).",
      severity: "error",
      from: { path: INFRA },
      to: { path: [DOMAIN, TOOLS, READ_MODELS, EDGE, JOB_ENTRIES] },
    },
    {
      name: "tools-not-edge",
      comment:
        "Tools and read models sit below the surfaces that call them (REST, MCP, CLI, the dashboard): they must not import routes, " +
        "the request pipeline, MCP or the dashboard glue.",
      severity: "error",
      from: { path: [TOOLS, READ_MODELS] },
      to: { path: EDGE },
    },
    {
      name: "dashboard-through-catalog",
      comment:
        "One way in: dashboard pages and server actions write only through tools (lib/dashboard/tool-action.ts runTool, " +
        "lib/tools/call.ts callTool) and read through lib/read-models, so validation, authorization, idempotency, events and " +
        "audit are the API's. Session and account matters that are no workspace capability go through lib/dashboard/account.ts. " +
        "Types, neutral modules and schema/constant modules may be imported.",
      severity: "error",
      from: { path: DASHBOARD, pathNot: HTTP_ROUTES },
      to: { path: "^(lib|inngest)/", pathNot: DASHBOARD_MAY_USE, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "jobs-not-edge",
      comment: "Job functions call the domain; they must not import the surfaces (routes, request pipeline, MCP) or the tool catalog.",
      severity: "error",
      from: { path: JOB_ENTRIES },
      to: { path: [EDGE, TOOLS] },
    },
    {
      name: "neutral-stays-neutral",
      comment: "lib/errors.ts, lib/ids.ts and lib/pagination/ are imported by every layer, so they import no layer.",
      severity: "error",
      from: { path: NEUTRAL },
      to: { path: "^(lib|app|pages|components|inngest)/", pathNot: NEUTRAL },
    },
  ],
  options: {
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    doNotFollow: { path: "^node_modules" },
    exclude: { path: "^(lib/generated|node_modules|\\.next)" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".mjs", ".js"] },
    reporterOptions: { text: { highlightFocused: false } },
  },
};
