import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { renderToolCatalogDoc } from "./catalog-doc";

it("docs/tool-catalog.md lists the catalog as it is (run `npm run docs:tools`)", () => {
  const file = fs.readFileSync(path.resolve(__dirname, "../../docs/tool-catalog.md"), "utf8");
  expect(file).toBe(renderToolCatalogDoc());
});
