import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { catalog, TOOLS } from "./catalog";

describe("the tool catalog", () => {
  it("describes every tool with an object input schema that JSON Schema validators compile", () => {
    const ajv = new Ajv({ strict: false, validateFormats: false });
    for (const tool of catalog().tools) {
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(JSON.stringify(tool), tool.name).not.toContain("$ref");
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      if (tool.outputSchema) expect(() => ajv.compile(tool.outputSchema!), tool.name).not.toThrow();
    }
  });

  it("marks nullable result values with a type union and nullable: true, and accepts null there", () => {
    const ajv = new Ajv({ strict: false, validateFormats: false });
    const account = catalog().tools.find((t) => t.name === "get_account")!;
    const plan = (account.outputSchema as any).properties.account.properties.plan;
    expect(plan).toMatchObject({ type: ["string", "null"], nullable: true });
    const validate = ajv.compile(account.outputSchema!);
    const sample = { account: { id: "usr_1", name: "A", email: "a@example.com", plan: null, credits: null, trialEndsAt: null, extra: 1 } };
    expect(validate(sample), JSON.stringify(validate.errors)).toBe(true);
  });

  it("has unique snake_case names and a declared capability for each tool", () => {
    const names = TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const t of TOOLS) {
      expect(t.name).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      expect(t.capability).toBeTruthy();
      expect(t.readOnly && t.destructive).toBe(false);
    }
  });
});
