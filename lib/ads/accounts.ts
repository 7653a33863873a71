import type { Principal } from "@/lib/auth/principal";
import type { Platform } from "@/lib/generated/prisma/enums";
import type { z } from "zod";
import type { AdAccountSchema, AudienceSchema } from "./ad-schemas";
import { platformFor } from "./platform-access";

type AdAccountOut = z.input<typeof AdAccountSchema>;

/** The workspace's ad account on one platform, as the platform describes it (currency, time zone, status). */
export async function getAdAccountInfo(principal: Principal, input: { platform: Platform }): Promise<{ account: AdAccountOut }> {
  const { account, api } = await platformFor(principal, input.platform);
  const info = await api.getAccount(account);
  return {
    account: {
      id: account.id,
      platform: account.platform,
      mode: account.mode,
      externalAccountId: account.externalAccountId,
      name: info.name,
      currency: info.currency,
      timeZone: info.timeZone,
      status: info.status,
      today: info.today,
    },
  };
}

/** Both platforms' ad accounts of the workspace (those connected). */
export async function listAdAccounts(principal: Principal): Promise<{ accounts: AdAccountOut[] }> {
  const accounts: AdAccountOut[] = [];
  for (const platform of ["platform_a", "platform_b"] as Platform[]) {
    try {
      accounts.push((await getAdAccountInfo(principal, { platform })).account);
    } catch (err) {
      if ((err as { code?: string }).code !== "not_connected") throw err;
    }
  }
  return { accounts };
}

/** The saved audiences of the workspace's ad account on the platform. */
export async function listAudiences(principal: Principal, input: { platform: Platform }): Promise<{ audiences: z.input<typeof AudienceSchema>[] }> {
  const { account, api } = await platformFor(principal, input.platform);
  const audiences = await api.listAudiences(account);
  return { audiences: audiences.map((a) => ({ id: a.externalId, name: a.name, description: a.description, approximateSize: a.approximateSize })) };
}
