import { CAPABILITIES } from "@/lib/auth/capabilities";
import { TOOLS } from "./catalog";

/** docs/tool-catalog.md, rendered from the catalog (a test keeps the file in step). */
export function renderToolCatalogDoc(): string {
  const lines = [
    "# Tool catalog",
    "",
    "<!-- Generated from lib/tools/catalog.ts by `npm run docs:tools`; do not edit by hand. -->",
    "",
    "Every tool is served on REST (`POST /api/v1/tools/{name}`), MCP, the CLI (`adloom tools call <name>`) and the",
    "client library. The arguments and result of each are in its JSON Schemas (`GET /api/v1/tools`). A tool with a",
    "REST route is also one of the spec's curated resources. See [tools.md](tools.md) for how to call them and",
    "[permissions.md](permissions.md) for roles and scopes.",
    "",
    "| tool | category | kind | capability (role permission; scopes) | REST route | what it does |",
    "|---|---|---|---|---|---|",
  ];
  for (const tool of TOOLS) {
    const capability = CAPABILITIES[tool.capability];
    const scopes =
      capability.scopes === "unscoped" ? "unscoped key" : capability.scopes.length ? capability.scopes.map((s) => `\`${s}\``).join(" + ") : "any scope";
    const kind = tool.readOnly ? "read" : tool.destructive ? "destructive" : "write";
    const route = tool.rest ? `\`${tool.rest.method} ${tool.rest.path}\`` : "—";
    const description = tool.description.replace(/\|/g, "\\|").replace(/\n/g, " ");
    lines.push(`| \`${tool.name}\` | ${tool.category} | ${kind} | \`${capability.permission}\`; ${scopes} | ${route} | ${description} |`);
  }
  lines.push("");
  return lines.join("\n");
}
