import { setTimeout as sleep } from "node:timers/promises";
import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import type { Platform } from "@/lib/generated/prisma/enums";
import { getConfig } from "@/lib/services";
import { adapterFor, getAdAccount, PlatformError, platformWaitSeconds, type AdAccountRef, type PlatformAdapter } from "@/lib/platforms";

/** The workspace's ad account on the platform and the adapter that serves it; `not_connected` when there is none. */
export async function platformFor(principal: Pick<Principal, "workspaceId">, platform: Platform): Promise<{ account: AdAccountRef; api: PlatformAdapter }> {
  const account = await getAdAccount(principal.workspaceId, platform);
  if (!account) throw new AppError("not_connected", `No ${platform} ad account is connected to this workspace; connect one first`);
  return { account, api: adapterFor(account) };
}

/**
 * The ad account an existing object was made on and the adapter that serves it: a campaign's own account,
 * whatever the workspace's default is now. `not_connected` once that account is gone, or is a sandbox
 * account on a live service; a disconnected or refused account answers `not_connected` on its first call.
 */
export async function platformForAccount(
  principal: Pick<Principal, "workspaceId">,
  adAccountId: string,
): Promise<{ account: AdAccountRef; api: PlatformAdapter }> {
  const account = await getDb().adAccount.findFirst({ where: { id: adAccountId, workspaceId: principal.workspaceId } });
  if (!account || (getConfig().platforms.mode === "live" && account.mode === "sandbox")) {
    throw new AppError("not_connected", "The ad account this was made on is no longer connected to this workspace; connect it again to change it");
  }
  return { account, api: adapterFor(account) };
}

/** The account of a campaign, which its ad sets and ads live on too (see platformForAccount). */
export async function platformForCampaign(
  principal: Pick<Principal, "workspaceId">,
  campaignId: string,
): Promise<{ account: AdAccountRef; api: PlatformAdapter }> {
  const campaign = await getDb().adCampaign.findFirst({ where: { id: campaignId, workspaceId: principal.workspaceId }, select: { adAccountId: true } });
  if (!campaign) throw notFound(`Campaign ${campaignId}`);
  return platformForAccount(principal, campaign.adAccountId);
}

/** The ads' campaigns' accounts: each account id with the ads made on it. */
export async function adsByAccount<A extends { campaignId: string }>(principal: Pick<Principal, "workspaceId">, ads: A[]): Promise<Map<string, A[]>> {
  const campaigns = await getDb().adCampaign.findMany({
    where: { id: { in: [...new Set(ads.map((a) => a.campaignId))] }, workspaceId: principal.workspaceId },
    select: { id: true, adAccountId: true },
  });
  const accountOf = new Map(campaigns.map((c) => [c.id, c.adAccountId]));
  const groups = new Map<string, A[]>();
  for (const ad of ads) {
    const adAccountId = accountOf.get(ad.campaignId);
    if (adAccountId) groups.set(adAccountId, [...(groups.get(adAccountId) ?? []), ad]);
  }
  return groups;
}

/** A platform's wait up to this long is slept inside the call; a longer one goes back to the caller (jobs sleep it durably). */
export const IN_CALL_WAIT_LIMIT_SECONDS = 2;

/**
 * Runs a platform call, waiting out short rate limits (`upstream_busy`) up to `attempts` times: for
 * work that must finish in one call (the bulk builder). Other refusals, and a wait the platform asks
 * that is longer than IN_CALL_WAIT_LIMIT_SECONDS, are thrown at once.
 */
export async function withBusyRetry<T>(call: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof PlatformError) || err.code !== "upstream_busy" || attempt >= attempts) throw err;
      const retryAfter = platformWaitSeconds(err) ?? 1;
      if (retryAfter > IN_CALL_WAIT_LIMIT_SECONDS) throw err;
      await sleep(Math.min(2000, retryAfter * 1000 * (attempt === 1 ? 0.25 : 0.5 * attempt)));
    }
  }
}
