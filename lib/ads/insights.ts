import type { Principal } from "@/lib/auth/principal";
import type { Ad } from "@/lib/generated/prisma/client";
import type { Platform } from "@/lib/generated/prisma/enums";
import { platformFor } from "./platform-access";
import { requireAd } from "./lookups";

export interface TodayNumbers {
  date: string;
  spendMinor: number;
  impressions: number;
  clicks: number;
  conversions: number;
}

/** Today's delivery (the ad account's day) for each of the ads, one insights call per platform. */
export async function todayByAd(principal: Pick<Principal, "workspaceId">, ads: Pick<Ad, "id" | "platform" | "externalId">[]): Promise<Map<string, TodayNumbers>> {
  const out = new Map<string, TodayNumbers>();
  for (const platform of ["platform_a", "platform_b"] as Platform[]) {
    const mine = ads.filter((a) => a.platform === platform);
    if (!mine.length) continue;
    const { account, api } = await platformFor(principal, platform);
    const { today } = await api.getAccount(account);
    const rows = await api.getDailyInsights(account, { since: today, until: today, adExternalIds: mine.map((a) => a.externalId) });
    const byExternal = new Map(rows.map((r) => [r.adExternalId, r]));
    for (const ad of mine) {
      const r = byExternal.get(ad.externalId);
      out.set(ad.id, { date: today, spendMinor: r?.spendMinor ?? 0, impressions: r?.impressions ?? 0, clicks: r?.clicks ?? 0, conversions: r?.conversions ?? 0 });
    }
  }
  return out;
}

/** An ad's daily insights over a range of the account's days (default: the last 7). */
export async function getAdInsights(principal: Principal, input: { id: string; since?: string; until?: string }) {
  const ad = await requireAd(principal, input.id);
  const { account, api } = await platformFor(principal, ad.platform);
  const info = await api.getAccount(account);
  const until = input.until ?? info.today;
  const since = input.since ?? new Date(Date.parse(`${until}T00:00:00Z`) - 6 * 86_400_000).toISOString().slice(0, 10);
  const days = await api.getDailyInsights(account, { since, until, adExternalIds: [ad.externalId] });
  return {
    currency: info.currency,
    timeZone: info.timeZone,
    days: days.map(({ adExternalId: _ignored, ...d }) => d),
  };
}
