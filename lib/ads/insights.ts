import type { Principal } from "@/lib/auth/principal";
import { isAppError } from "@/lib/errors";
import type { Ad } from "@/lib/generated/prisma/client";
import { PlatformError } from "@/lib/platforms";
import type { DailyInsight } from "@/lib/platforms/ads-types";
import { adsByAccount, platformForAccount, platformForCampaign } from "./platform-access";
import { requireAd } from "./lookups";

export interface TodayNumbers {
  date: string;
  spendMinor: number;
  impressions: number;
  clicks: number;
  conversions: number;
}

export interface RecentDelivery {
  today: TodayNumbers;
  last7Days: Omit<TodayNumbers, "date"> & { since: string };
}

const DAY_MS = 86_400_000;
const daysBefore = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10);

/**
 * Today's and the last 7 days' delivery (the ad account's days) for each of the ads, one insights call per ad
 * account (each ad's campaign's, whatever the default is now).
 */
export async function recentByAd(
  principal: Pick<Principal, "workspaceId">,
  ads: Pick<Ad, "id" | "campaignId" | "externalId">[],
): Promise<Map<string, RecentDelivery>> {
  const out = new Map<string, RecentDelivery>();
  for (const [adAccountId, mine] of await adsByAccount(principal, ads)) {
    let today: string;
    let since: string;
    let rows: DailyInsight[];
    try {
      const { account, api } = await platformForAccount(principal, adAccountId);
      today = (await api.getAccount(account)).today;
      since = daysBefore(today, 6);
      rows = await api.getDailyInsights(account, { since, until: today, adExternalIds: mine.map((a) => a.externalId) });
    } catch (err) {
      // A list of ads stays answerable while the platform rate-limits or fails its metrics, or while an account
      // needs reconnecting: those ads' numbers are null then, and the other accounts' ads keep theirs.
      if ((err instanceof PlatformError && err.retryable) || (isAppError(err) && err.code === "not_connected")) continue;
      throw err;
    }
    for (const ad of mine) {
      const days = rows.filter((r) => r.adExternalId === ad.externalId);
      const t = days.find((d) => d.date === today);
      const sum = (k: "spendMinor" | "impressions" | "clicks" | "conversions") => days.reduce((s, d) => s + d[k], 0);
      out.set(ad.id, {
        today: { date: today, spendMinor: t?.spendMinor ?? 0, impressions: t?.impressions ?? 0, clicks: t?.clicks ?? 0, conversions: t?.conversions ?? 0 },
        last7Days: { since, spendMinor: sum("spendMinor"), impressions: sum("impressions"), clicks: sum("clicks"), conversions: sum("conversions") },
      });
    }
  }
  return out;
}

/** An ad's daily insights over a range of the account's days (default: the last 7). */
export async function getAdInsights(principal: Principal, input: { id: string; since?: string; until?: string }) {
  const ad = await requireAd(principal, input.id);
  const { account, api } = await platformForCampaign(principal, ad.campaignId);
  const info = await api.getAccount(account);
  const until = input.until ?? info.today;
  const since = input.since ?? daysBefore(until, 6);
  const days = await api.getDailyInsights(account, { since, until, adExternalIds: [ad.externalId] });
  return {
    currency: info.currency,
    timeZone: info.timeZone,
    days: days.map(({ adExternalId: _ignored, ...d }) => d),
  };
}
