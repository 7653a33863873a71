import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { renderPermissionsDoc } from "./permissions-doc";

it("docs/permissions.md matches the permission tables in code (run `npm run docs:permissions`)", () => {
  const file = fs.readFileSync(path.resolve(__dirname, "../../docs/permissions.md"), "utf8");
  expect(file).toBe(renderPermissionsDoc());
});
