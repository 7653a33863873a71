import type { Platform } from "@/lib/generated/prisma/enums";
import type { LocationType, PlatformLocation } from "../ads-types";

/**
 * The sandbox's built-in places, searched by name as the live platforms' targeting search would be.
 * Each place has an id per platform, shaped like the real ones: platform_a (Meta) uses the ISO code
 * for a country and numeric keys for regions and cities; platform_b (TikTok) uses GeoNames-style
 * location ids for all three. A small list: enough to target by name in the sandbox and in tests.
 */
interface Place {
  type: LocationType;
  name: string;
  countryCode: string;
  /** The region a city is in. */
  regionName?: string;
  ids: Record<Platform, string>;
}

const country = (name: string, countryCode: string, tiktokId: string): Place => ({
  type: "country",
  name,
  countryCode,
  ids: { platform_a: countryCode, platform_b: tiktokId },
});
const region = (name: string, countryCode: string, metaKey: string, tiktokId: string): Place => ({
  type: "region",
  name,
  countryCode,
  ids: { platform_a: metaKey, platform_b: tiktokId },
});
const city = (name: string, regionName: string, countryCode: string, metaKey: string, tiktokId: string): Place => ({
  type: "city",
  name,
  regionName,
  countryCode,
  ids: { platform_a: metaKey, platform_b: tiktokId },
});

const PLACES: readonly Place[] = [
  country("United States", "US", "6252001"),
  country("Germany", "DE", "2921044"),
  country("France", "FR", "3017382"),
  country("United Kingdom", "GB", "2635167"),
  country("Canada", "CA", "6251999"),
  country("Spain", "ES", "2510769"),
  region("California", "US", "3847", "5332921"),
  region("Texas", "US", "3886", "4736286"),
  region("New York", "US", "3875", "5128638"),
  region("Bavaria", "DE", "1651", "2951839"),
  region("Berlin", "DE", "1650", "2950157"),
  region("Île-de-France", "FR", "1195", "3012874"),
  region("England", "GB", "1462", "6269131"),
  region("Ontario", "CA", "534", "6093943"),
  region("Catalonia", "ES", "1228", "3336901"),
  city("San Francisco", "California", "US", "2421836", "5391959"),
  city("Los Angeles", "California", "US", "2420379", "5368361"),
  city("San Diego", "California", "US", "2421658", "5391811"),
  city("Austin", "Texas", "US", "2490299", "4671654"),
  city("Houston", "Texas", "US", "2501000", "4699066"),
  city("New York City", "New York", "US", "2490341", "5128581"),
  city("Munich", "Bavaria", "DE", "539519", "2867714"),
  city("Nuremberg", "Bavaria", "DE", "539806", "2861650"),
  city("Berlin", "Berlin", "DE", "538985", "2950159"),
  city("Paris", "Île-de-France", "FR", "298160", "2988507"),
  city("London", "England", "GB", "2229017", "2643743"),
  city("Manchester", "England", "GB", "2233406", "2643123"),
  city("Toronto", "Ontario", "CA", "296875", "6167865"),
  city("Barcelona", "Catalonia", "ES", "784226", "3128760"),
];

const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().trim();

const toLocation = (p: Place, platform: Platform): PlatformLocation => ({
  id: p.ids[platform],
  type: p.type,
  name: p.name,
  countryCode: p.countryCode,
  regionName: p.regionName ?? null,
});

/** Places whose name contains the query (accents and case ignored), names starting with it first. */
export function searchSandboxLocations(platform: Platform, query: string, types: readonly LocationType[], limit: number): PlatformLocation[] {
  const q = fold(query);
  if (!q) return [];
  const hits = PLACES.filter((p) => types.includes(p.type) && fold(p.name).includes(q));
  hits.sort((a, b) => Number(!fold(a.name).startsWith(q)) - Number(!fold(b.name).startsWith(q)));
  return hits.slice(0, limit).map((p) => toLocation(p, platform));
}

/** The sandbox place with this platform id and type, or null. */
export function sandboxLocation(platform: Platform, id: string, type: LocationType): PlatformLocation | null {
  const place = PLACES.find((p) => p.type === type && p.ids[platform] === id);
  return place ? toLocation(place, platform) : null;
}
