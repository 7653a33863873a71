import type { Principal } from "@/lib/auth/principal";
import { getDb, queryRows } from "@/lib/db/client";
import type { Platform } from "@/lib/generated/prisma/enums";
import type { LocationType, PlatformLocation } from "@/lib/platforms/ads-types";
import { platformFor, withBusyRetry } from "./platform-access";

export interface LocationOut extends PlatformLocation {
  platform: Platform;
}

/**
 * Places by name on the workspace's ad account of that platform (Meta's and TikTok's targeting search,
 * the sandbox's built-in list). What was found is remembered (platform_locations) so that an ad set made
 * with these ids later shows their names.
 */
export async function searchLocations(
  principal: Principal,
  input: { platform: Platform; query: string; types?: LocationType[]; limit: number },
): Promise<{ locations: LocationOut[] }> {
  const { account, api } = await platformFor(principal, input.platform);
  const types = input.types?.length ? [...new Set(input.types)] : (["country", "region", "city"] as const);
  const found = await withBusyRetry(() => api.searchLocations(account, { text: input.query.trim(), types, limit: input.limit }));
  await remember(input.platform, found);
  return { locations: found.map((l) => ({ ...l, platform: input.platform })) };
}

// One statement for the whole answer: a search runs on every pause in typing.
const REMEMBER_STATEMENT = `
  INSERT INTO platform_locations (platform, type, "externalId", name, "countryCode", "regionName", "updatedAt")
  SELECT $1::"Platform", t.type, t.id, t.name, t."countryCode", t."regionName", now()
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS t(type, id, name, "countryCode", "regionName")
  ON CONFLICT (platform, type, "externalId") DO UPDATE
  SET name = EXCLUDED.name, "countryCode" = EXCLUDED."countryCode", "regionName" = EXCLUDED."regionName", "updatedAt" = EXCLUDED."updatedAt"`;

async function remember(platform: Platform, found: PlatformLocation[]): Promise<void> {
  // A place twice in one answer would make the upsert touch its row twice, which PostgreSQL refuses.
  const places = [...new Map(found.map((p) => [`${p.type}:${p.id}`, p])).values()];
  if (!places.length) return;
  await queryRows(REMEMBER_STATEMENT, [
    platform,
    places.map((p) => p.type),
    places.map((p) => p.id),
    places.map((p) => p.name),
    places.map((p) => p.countryCode ?? null),
    places.map((p) => p.regionName ?? null),
  ]);
}

/** The names the location search gave these ids (id -> name); ids it never answered are left out. */
export async function locationNames(platform: Platform, wanted: { type: LocationType | null; ids: string[] }[]): Promise<Record<string, string>> {
  const ids = [...new Set(wanted.flatMap((w) => w.ids))];
  if (!ids.length) return {};
  const rows = await getDb().platformLocation.findMany({ where: { platform, externalId: { in: ids } } });
  const names: Record<string, string> = {};
  for (const w of wanted)
    for (const id of w.ids) {
      const row = rows.find((r) => r.externalId === id && (w.type === null || r.type === w.type));
      if (row) names[id] = row.name;
    }
  return names;
}
