// `npm run admin`: the operator CLI, loaded from cached bundles (scripts/bundled-typescript.mjs). A command for a
// running server goes to it from the small first stage (scripts/admin-handoff.ts); only the rest loads the app
// (scripts/admin.ts).
import v8 from "node:v8";
import { importBundled } from "./bundled-typescript.mjs";
import { WASM_TIERING_FLAG } from "./v8-flags.mjs";

await (await importBundled("scripts/admin-handoff.ts")).handOffToServer();
// Set before the app opens the embedded database (its WASM), as the server gets it on its command line.
v8.setFlagsFromString(WASM_TIERING_FLAG);
await importBundled("scripts/admin.ts");
