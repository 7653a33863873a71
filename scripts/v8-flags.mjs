// V8 re-compiles a WebAssembly function with its optimizing compiler once it has run ~13 MB of code; the
// embedded database's and Prisma's WASM cross that for hundreds of functions while a process just opens them,
// ~1–2 CPU-seconds per process on background threads. An 8x budget keeps start-up in the baseline compiler,
// and what stays hot under load is still optimized (docs/testing.md, "What a server start costs"). Given to the
// server (scripts/start.mjs), the operator CLI (scripts/admin.mjs) and the vitest workers (vitest.config.ts).
export const WASM_TIERING_FLAG = "--wasm-tiering-budget=100000000";
