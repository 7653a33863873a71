import type { Metadata } from "next";
import Link from "next/link";
import { Badge, Card, PageHeader } from "@/components/ui/misc";
import { roleAllows } from "@/lib/dashboard/access";
import { currentClock, requirePrincipal } from "@/lib/dashboard/current";
import { formatDate } from "@/components/dashboard/format";
import { planStatus } from "@/lib/dashboard/access";
import { getPlanStatus, PLAN_CREDITS, type PlanState } from "@/lib/read-models/plan";
import { PlanActions } from "./plan-actions";

export const metadata: Metadata = { title: "Plan" };
export const dynamic = "force-dynamic";

const STATE_LABEL: Record<PlanState, { text: string; tone: "indigo" | "green" | "amber" | "rose" }> = {
  trial: { text: "Free trial", tone: "indigo" },
  trial_ended: { text: "Trial ended", tone: "amber" },
  pro: { text: "Pro", tone: "green" },
  lapsed: { text: "No active plan", tone: "rose" },
};

export default async function PlanPage() {
  const principal = await requirePrincipal();
  const status = await getPlanStatus(principal);
  const mayManage = roleAllows(principal.role, "billing.manage");
  const label = STATE_LABEL[status.state];
  const clock = await currentClock(principal.userId);
  // What cancelling Pro would return to: the rest of the free trial, when some is left.
  const trialAfterCancel = status.state === "pro" ? planStatus({ plan: null, trialEndsAt: principal.workspace.trialEndsAt }) : null;
  return (
    <>
      <PageHeader title="Plan" description="The free trial covers the dashboard. API keys, the REST API, webhooks and agent access need the Pro plan." />
      <div className="grid gap-6 md:grid-cols-2">
        <Card className="p-6">
          <h2 className="text-sm font-medium text-slate-500">Current plan</h2>
          <p className="mt-2 flex items-center gap-3 text-2xl font-semibold text-slate-900">
            <span data-testid="plan-state">{label.text}</span> <Badge tone={label.tone}>{status.apiAccess ? "API access on" : "Dashboard only"}</Badge>
          </p>
          <p className="mt-2 text-sm text-slate-600">
            {status.state === "trial" &&
              `Your trial ends on ${formatDate(status.trialEndsAt!, clock)} (${status.trialDaysLeft} ${status.trialDaysLeft === 1 ? "day" : "days"} left).`}
            {status.state === "trial_ended" && "Your trial has ended. Choose Pro to keep working."}
            {status.state === "pro" && (
              <>
                <span data-testid="plan-credits">{principal.workspace.credits.toLocaleString("en-US")}</span> AI credits remaining (
                <Link href="/dashboard/assistant" className="font-medium text-indigo-700 underline underline-offset-2">
                  usage
                </Link>
                ).
              </>
            )}
            {status.state === "lapsed" && "The Pro plan was cancelled. API keys answer 402 until you subscribe again."}
          </p>
          <p className="mt-4 text-xs text-slate-500">
            Workspace ID{" "}
            <code data-testid="workspace-id" className="rounded bg-slate-100 px-1 py-0.5 font-mono text-slate-700">
              {principal.workspaceId}
            </code>
          </p>
        </Card>
        <Card className="p-6">
          <h2 className="text-lg font-semibold text-slate-900">Pro</h2>
          <ul className="mt-3 space-y-1.5 text-sm text-slate-700">
            <li>API keys with scopes, the REST API and the tool catalog</li>
            <li>Signed webhooks with a 7-day delivery log</li>
            <li>{PLAN_CREDITS.pro.toLocaleString("en-US")} AI credits for the assistant (the balance is topped up to this on subscribing)</li>
            <li>Unlimited team members and folders</li>
          </ul>
          <div className="mt-6">
            {mayManage ? (
              <PlanActions
                onPro={status.state === "pro"}
                trialLeft={
                  trialAfterCancel?.state === "trial"
                    ? { endsOn: formatDate(trialAfterCancel.trialEndsAt!, clock), days: trialAfterCancel.trialDaysLeft! }
                    : null
                }
              />
            ) : (
              <p className="text-sm text-slate-600">Only owners and admins can change the plan.</p>
            )}
          </div>
        </Card>
      </div>
    </>
  );
}
