// `npm run admin`: the operator CLI (scripts/admin.ts), loaded from its cached bundle (scripts/bundled-typescript.mjs).
import { importBundled } from "./bundled-typescript.mjs";

await importBundled("scripts/admin.ts");
