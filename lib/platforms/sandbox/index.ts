/**
 * The sandbox ad platform: an offline stand-in for the real platforms' APIs, with its own state in the
 * PostgreSQL schema `sandbox` and its own migrations (./migrations). This file is its public API for
 * the app: the adapter factory (lib/platforms/index.ts) builds its adapter, and the server applies its
 * migrations at start. Operators and tests steer it through ./operator.ts. Nothing else is reachable
 * from outside this folder (layer rules `sandbox-through-public-api`, `sandbox-through-the-contract`); see README.md here.
 */
export { SandboxPlatformAdapter } from "./adapter";
export { analyzeSandboxTables } from "./planner-stats";
export { ensureSandboxSchema } from "./store";
