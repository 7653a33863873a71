import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { GENERATED_DIR, generateSdkTypes } from "../../scripts/sdk-types/generate";

it("the client library's generated types match the catalog, the OpenAPI document and the error table (else: npm run gen:sdk)", async () => {
  const dir = path.resolve(__dirname, "../..", GENERATED_DIR);
  const files = await generateSdkTypes();
  expect(fs.readdirSync(dir).sort(), "files in packages/sdk/src/generated (run npm run gen:sdk)").toEqual(Object.keys(files).sort());
  for (const [name, content] of Object.entries(files)) {
    expect(fs.readFileSync(path.join(dir, name), "utf8"), `packages/sdk/src/generated/${name} is stale: run npm run gen:sdk`).toBe(content);
  }
  // Every tool of the catalog is typed: a new tool shows up here only after the generator ran.
  expect(files["tools.ts"]).toContain("list_creatives: { input: ListCreativesInput; result: ListCreativesResult;");
});
