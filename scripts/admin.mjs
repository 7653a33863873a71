// `npm run admin`: the operator CLI, loaded from cached bundles (scripts/bundled-typescript.mjs). A command for a
// running server goes to it from the small first stage (scripts/admin-handoff.ts); only the rest loads the app
// (scripts/admin.ts).
import { importBundled } from "./bundled-typescript.mjs";

await (await importBundled("scripts/admin-handoff.ts")).handOffToServer();
await importBundled("scripts/admin.ts");
