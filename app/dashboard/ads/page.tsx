import type { Metadata } from "next";
import { NoAccess, PlanRequired } from "@/components/dashboard/page-gates";
import { PageHeader } from "@/components/ui/misc";
import { can } from "@/lib/dashboard/access";
import { requirePrincipal } from "@/lib/dashboard/current";
import { planStatus } from "@/lib/dashboard/access";
import { adsResults } from "@/lib/read-models/ads-results";
import { AdsResults } from "./ads-results";
import { AdsWorkspace } from "./ads-workspace";

export const metadata: Metadata = { title: "Ads" };
export const dynamic = "force-dynamic";

type Query = { account?: string | string[]; platform?: string | string[]; from?: string | string[]; to?: string | string[] };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || undefined;

export default async function AdsPage({ searchParams }: { searchParams: Promise<Query> }) {
  const principal = await requirePrincipal();
  if (!planStatus(principal.workspace).dashboardAccess) {
    return (
      <PlanRequired page="Ads" title="Choose a plan to run ads">
        Ads open again as soon as the workspace is on a plan.
      </PlanRequired>
    );
  }
  if (!can(principal, "ads.read")) {
    return (
      <NoAccess page="Ads" title="No access to ads">
        Your role does not include viewing ads; ask a workspace admin.
      </NoAccess>
    );
  }
  const query = await searchParams;
  const results = await adsResults(principal, { account: one(query.account), platform: one(query.platform), since: one(query.from), until: one(query.to) });
  return (
    <>
      <PageHeader
        title="Ads"
        description="Campaigns, ad sets and ads on both ad platforms, built from your library. Everything is created paused; activating switches spending on."
      />
      <div className="mb-8">
        <AdsResults view={results} />
      </div>
      <AdsWorkspace
        role={principal.role}
        canWrite={can(principal, "ads.write")}
        canLaunch={can(principal, "ads.launch")}
        canDelete={can(principal, "ads.delete")}
      />
    </>
  );
}
