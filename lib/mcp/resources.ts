import type { ReadResourceResult, Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "@/lib/auth/principal";
import { INSIGHT_LEVELS } from "@/lib/performance/insights";
import { readThroughTool } from "./tool-json";

/**
 * MCP resources: the library's creatives and the performance reports, as JSON documents read
 * through the same read-only tools REST and tools/call use (so what a resource shows is what the
 * tool would show this principal). Boards are not a capability yet.
 */
export const CREATIVE_URI_TEMPLATE = "adloom://creatives/{id}";
export const INSIGHTS_URI_TEMPLATE = "adloom://reports/insights/{level}";
export const CREATIVE_PERFORMANCE_URI = "adloom://reports/creative-performance";

const JSON_TYPE = "application/json";

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: CREATIVE_URI_TEMPLATE,
    name: "creative",
    title: "Creative",
    description: "One creative of the library (file, media, dimensions, copy count, folder), as get_creative answers it",
    mimeType: JSON_TYPE,
  },
  {
    uriTemplate: INSIGHTS_URI_TEMPLATE,
    name: "insights",
    title: "Insights by level",
    description: `Last 30 days of delivery per object at a level (${INSIGHT_LEVELS.join(", ")}), the top spenders, as get_insights answers it`,
    mimeType: JSON_TYPE,
  },
];

const REPORTS: Resource[] = [
  {
    uri: CREATIVE_PERFORMANCE_URI,
    name: "creative-performance",
    title: "Creative performance",
    description: "Each creative's last-30-days figures and label (winner, loser, fatigued, neutral), as list_creative_performance answers it",
    mimeType: JSON_TYPE,
  },
  ...INSIGHT_LEVELS.map((level) => ({
    uri: INSIGHTS_URI_TEMPLATE.replace("{level}", level),
    name: `insights-${level}`,
    title: `Insights per ${level.replace("_", " ")}`,
    description: `Last 30 days of delivery per ${level.replace("_", " ")} (top spenders)`,
    mimeType: JSON_TYPE,
  })),
];

const PAGE = 50;

interface CreativeRow {
  id: string;
  fileName: string;
  kind?: string;
}

/** resources/list: the reports, then the library's creatives, newest first, 50 a page (the cursor is list_creatives'). */
export async function listResources(principal: Principal, cursor: string | undefined): Promise<{ resources: Resource[]; nextCursor?: string }> {
  const page = await readThroughTool<{ creatives: CreativeRow[]; nextCursor: string | null }>(principal, "list_creatives", {
    limit: PAGE,
    ...(cursor ? { cursor } : {}),
  });
  const creatives: Resource[] = page.creatives.map((c) => ({
    uri: creativeUri(c.id),
    name: c.fileName,
    title: c.fileName,
    description: `Creative ${c.id}${c.kind ? ` (${c.kind})` : ""}`,
    mimeType: JSON_TYPE,
  }));
  return { resources: [...(cursor ? [] : REPORTS), ...creatives], ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

export const creativeUri = (id: string) => CREATIVE_URI_TEMPLATE.replace("{id}", encodeURIComponent(id));

/** The tool call a resource URI reads, or null when the URI names no resource of ours. */
export function toolForUri(uri: string): { tool: string; args: Record<string, unknown> } | null {
  if (uri === CREATIVE_PERFORMANCE_URI) return { tool: "list_creative_performance", args: {} };
  const creative = /^adloom:\/\/creatives\/([^/?#]+)$/.exec(uri);
  if (creative) return { tool: "get_creative", args: { id: safeDecode(creative[1]!) } };
  const insights = /^adloom:\/\/reports\/insights\/([a-z_]+)$/.exec(uri);
  if (insights && (INSIGHT_LEVELS as readonly string[]).includes(insights[1]!)) return { tool: "get_insights", args: { level: insights[1] } };
  return null;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** resources/read: the tool's result as one JSON text content. */
export async function readResource(principal: Principal, uri: string): Promise<ReadResourceResult | null> {
  const target = toolForUri(uri);
  if (!target) return null;
  const result = await readThroughTool<unknown>(principal, target.tool, target.args);
  return { contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(result) }] };
}
