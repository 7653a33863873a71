import { TOOL_CATALOG } from "@adloom/sdk/catalog";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "./commands.js";
import { helpText } from "./help.js";

describe("the command table", () => {
  it("names only tools of the catalog, and fills only their arguments from positionals", () => {
    for (const command of COMMANDS.filter((c) => c.tool)) {
      const tool = TOOL_CATALOG.find((t) => t.name === command.tool);
      expect(tool, `${command.name} -> ${command.tool}`).toBeDefined();
      const properties = Object.keys((tool!.inputSchema.properties ?? {}) as object);
      for (const p of command.positionals ?? []) expect(properties, `${command.name} <${p.name}>`).toContain(p.argument ?? p.name);
    }
  });

  it("writes the help from the table: every command, and each tool-backed command's flags from its schema", () => {
    const help = helpText(COMMANDS);
    for (const command of COMMANDS) expect(help).toContain(`  ${command.name}`);
    expect(help).toMatch(/uploads list \[--limit N\] \[--cursor TEXT\] \[--all\]/);
    expect(help).toMatch(/copy add <creativeId> \[--headline TEXT\] \[--primary-text TEXT\]/);
    expect(help).toMatch(/webhooks listen \[--forward-to URL\]/);
  });
});
