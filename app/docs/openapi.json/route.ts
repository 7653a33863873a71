import { operations } from "@/lib/api/v1";
import { getConfig } from "@/lib/services";
import { buildOpenApiDocument } from "@/lib/openapi/document";

export const runtime = "nodejs";

let cached: string | undefined;

export function GET(): Response {
  cached ??= JSON.stringify(buildOpenApiDocument(operations, getConfig().publicBaseUrl));
  return new Response(cached, { headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=60" } });
}
