/** How the dashboard names each platform. */
export const PLATFORM_LABEL = { platform_a: "Platform A", platform_b: "Platform B" } as const;

type LabelledAccount = { platform: string; name: string; currency: string };

/** The ad account's platform's name; with several accounts of that platform among `accounts`, its name and currency too. */
export function adAccountLabel(account: LabelledAccount, accounts: LabelledAccount[]): string {
  const platform = (PLATFORM_LABEL as Record<string, string>)[account.platform] ?? account.platform;
  const several = accounts.filter((a) => a.platform === account.platform).length > 1;
  return several ? `${platform} · ${account.name} (${account.currency})` : platform;
}
