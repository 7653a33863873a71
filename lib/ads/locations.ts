import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
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

async function remember(platform: Platform, places: PlatformLocation[]): Promise<void> {
  const db = getDb();
  for (const p of places) {
    const fields = { name: p.name, countryCode: p.countryCode, regionName: p.regionName };
    await db.platformLocation.upsert({
      where: { platform_type_externalId: { platform, type: p.type, externalId: p.id } },
      create: { platform, type: p.type, externalId: p.id, ...fields },
      update: fields,
    });
  }
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
