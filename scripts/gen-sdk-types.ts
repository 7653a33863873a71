// `npm run gen:sdk`: writes the client library's generated types (packages/sdk/src/generated/*)
// from the tool catalog, the OpenAPI document and the error table. Run it after adding or
// changing a tool, a REST schema or an error code; tests/sdk/generated-types.test.ts fails until then.
import fs from "node:fs";
import path from "node:path";
import { GENERATED_DIR, generateSdkTypes } from "./sdk-types/generate";

const dir = path.resolve(import.meta.dirname, "..", GENERATED_DIR);
fs.mkdirSync(dir, { recursive: true });
const files = await generateSdkTypes();
for (const [name, content] of Object.entries(files)) {
  const file = path.join(dir, name);
  const changed = !fs.existsSync(file) || fs.readFileSync(file, "utf8") !== content;
  if (changed) fs.writeFileSync(file, content);
  console.log(`${changed ? "wrote    " : "unchanged"} ${path.relative(process.cwd(), file)}`);
}
for (const stale of fs.readdirSync(dir).filter((f) => !(f in files))) {
  fs.rmSync(path.join(dir, stale));
  console.log(`removed   ${path.join(GENERATED_DIR, stale)}`);
}
process.exit(0);
