import { getDb } from "@/lib/db/client";
import type { Platform } from "@/lib/generated/prisma/enums";
import { adAccountCurrencies } from "./rollup-clock";

/** How the performance readers (the Ads page's results, the rollup's health) name an ad account. */
export interface AccountIdentity {
  adAccountId: string;
  platform: Platform;
  /** The platform's name for the account, else its id there. */
  name: string;
  /** The platform's default account for the workspace. */
  isDefault: boolean;
  /** The currency its amounts are in. */
  currency: string;
}

/** The identities of the workspace's ad accounts given by id and platform, in the order given. */
export async function accountIdentities(workspaceId: string, of: { adAccountId: string; platform: Platform }[]): Promise<AccountIdentity[]> {
  const [rows, currencyOf] = await Promise.all([
    getDb().adAccount.findMany({
      where: { workspaceId, id: { in: of.map((a) => a.adAccountId) } },
      select: { id: true, name: true, externalAccountId: true, defaultFor: true },
    }),
    adAccountCurrencies(workspaceId),
  ]);
  const rowOf = new Map(rows.map((a) => [a.id, a]));
  return of.map(({ adAccountId, platform }) => {
    const row = rowOf.get(adAccountId);
    return {
      adAccountId,
      platform,
      name: row?.name ?? row?.externalAccountId ?? adAccountId,
      isDefault: row?.defaultFor === platform,
      currency: currencyOf(adAccountId, platform),
    };
  });
}

/** Ad accounts by platform, the default first, then by name. */
export function accountOrder(a: AccountIdentity, b: AccountIdentity): number {
  return (
    a.platform.localeCompare(b.platform) ||
    Number(b.isDefault) - Number(a.isDefault) ||
    a.name.localeCompare(b.name) ||
    a.adAccountId.localeCompare(b.adAccountId)
  );
}
