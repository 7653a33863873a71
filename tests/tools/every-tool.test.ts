import { describe, expect, it } from "vitest";
import { api, createTenant } from "../helpers/fixtures";
import { TOOL_CALLS } from "./tool-calls";

describe("every tool of the catalog, called over REST", () => {
  it("has a test call for each tool GET /api/v1/tools lists (and none for tools that do not exist)", async () => {
    const tenant = await createTenant();
    const res = await api(tenant.key)("/api/v1/tools");
    const names: string[] = res.body.tools.map((t: { name: string }) => t.name);
    expect(names.length).toBeGreaterThan(0);
    const untested = names.filter((n) => !(n in TOOL_CALLS));
    expect(untested, "tools without a test call in tests/tools/tool-calls.ts").toEqual([]);
    expect(
      Object.keys(TOOL_CALLS).filter((n) => !names.includes(n)),
      "test calls for tools the catalog lacks",
    ).toEqual([]);
  });

  for (const [name, scenario] of Object.entries(TOOL_CALLS)) {
    it(name, async () => scenario(await createTenant()), 180_000);
  }
});
