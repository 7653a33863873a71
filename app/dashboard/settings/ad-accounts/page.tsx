import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/misc";
import { requirePrincipal } from "@/lib/dashboard/current";
import { can, oauthAppConfigured } from "@/lib/dashboard/access";
import { type PendingGrantView, pendingChoice } from "@/lib/dashboard/ad-account-oauth";
import { AdAccountsManager } from "./ad-accounts-manager";
import { ConnectChoice } from "./connect-choice";

export const metadata: Metadata = { title: "Ad accounts" };
export const dynamic = "force-dynamic";

export default async function AdAccountsPage({ searchParams }: { searchParams: Promise<{ connected?: string; error?: string; choose?: string }> }) {
  const principal = await requirePrincipal();
  const { connected, choose } = await searchParams;
  let { error } = await searchParams;
  let grant: PendingGrantView | null = null;
  if (choose && can(principal, "adaccounts.manage")) {
    const pending = await pendingChoice(principal, choose);
    grant = pending.grant;
    error = pending.error ?? error;
  }
  return (
    <>
      <PageHeader
        title="Ad accounts"
        description="The ad accounts this workspace publishes to. Sandbox accounts simulate delivery without real money; connect a live account to publish on the real platform. Each platform's default account receives uploads and new ads."
      />
      {grant && <ConnectChoice grant={grant} error={error ?? null} />}
      <AdAccountsManager
        canManage={can(principal, "adaccounts.manage")}
        appConfigured={{ platform_a: oauthAppConfigured("platform_a"), platform_b: oauthAppConfigured("platform_b") }}
        flash={{ connected: connected ? Number(connected) : null, error: grant ? null : (error ?? null) }}
      />
    </>
  );
}
