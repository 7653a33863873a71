import { TOOL_CATALOG } from "@adloom/sdk/catalog";
import type { CommandSpec } from "./commands.js";
import { toolFlags } from "./tool-flags.js";

/** The synopsis of one command: its words, positionals, and flags (its own and its tool's arguments). */
export function synopsis(spec: CommandSpec): string {
  const parts = [spec.name];
  const filled = (spec.positionals ?? []).map((p) => p.argument ?? p.name);
  for (const p of spec.positionals ?? [])
    parts.push(p.rest ? `<${p.name}...>` : spec.name === "tools call" && p.name !== "name" ? `[${p.name}]` : `<${p.name}>`);
  for (const [name, f] of Object.entries(spec.flags ?? {})) parts.push(f.type === "boolean" ? `[--${name}]` : `[--${name} ${f.placeholder ?? "VALUE"}]`);
  const schema = spec.tool ? TOOL_CATALOG.find((t) => t.name === spec.tool)?.inputSchema : undefined;
  for (const f of schema ? toolFlags(schema, [...filled, "idempotencyKey"]) : []) {
    const flag = `--${f.flag} ${f.placeholder}`;
    parts.push(f.required ? flag : `[${flag}]`);
  }
  if (spec.list) parts.push("[--all]");
  if (spec.name === "tools call") parts.push("[--<argument> value ...]");
  return parts.join(" ");
}

/** `adloom help`: written from the command table, so it lists exactly what the CLI accepts. */
export function helpText(commands: CommandSpec[]): string {
  const groups = new Map<string, CommandSpec[]>();
  for (const c of commands) {
    const group = c.name.includes(" ") ? c.name.split(" ")[0]! : "";
    groups.set(group, [...(groups.get(group) ?? []), c]);
  }
  const lines = ["adloom: the Adloom command-line client", "", "Usage: adloom <command> [arguments] [--json] [--api-key KEY] [--base-url URL]"];
  for (const list of groups.values()) {
    lines.push("");
    for (const c of list) lines.push(`  ${synopsis(c)}`, `      ${c.summary}`);
  }
  lines.push(
    "",
    "Commands that call a tool take its other arguments as --kebab-case flags (adloom tools describe <name> shows them), and --idempotency-key K.",
    "Every command takes --json (machine-readable output on stdout).",
    "Key and server: --api-key / ADLOOM_API_KEY / saved by login; --base-url / ADLOOM_BASE_URL (default http://localhost:3000).",
    "Exit codes: 0 ok, 1 API error, 2 usage, 3 authentication or permission, 4 upload failed, 5 server unreachable.",
  );
  return lines.join("\n");
}
