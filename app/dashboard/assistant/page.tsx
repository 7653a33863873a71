import type { Metadata } from "next";
import { NoAccess, PlanRequired } from "@/components/dashboard/page-gates";
import { Alert, Card, PageHeader, TableHead } from "@/components/ui/misc";
import { requirePrincipal } from "@/lib/dashboard/current";
import { callTool } from "@/lib/tools/call";
import { aiProvider, can, planStatus } from "@/lib/dashboard/access";
import { AssistantChat, AssistantSettings } from "./assistant-client";

export const metadata: Metadata = { title: "Assistant" };
export const dynamic = "force-dynamic";

interface Usage {
  balance: number | null;
  days: number;
  totalCredits: number;
  calls: number;
  byMember: { userId: string; name: string | null; email: string; credits: number; calls: number }[];
  byFeature: { feature: string; credits: number; calls: number }[];
}

export default async function AssistantPage() {
  const principal = await requirePrincipal();
  if (!planStatus(principal.workspace).dashboardAccess) {
    return (
      <PlanRequired page="Assistant" title="Choose a plan to use the assistant">
        The assistant opens again as soon as the workspace is on a plan.
      </PlanRequired>
    );
  }
  if (!can(principal, "ai.use"))
    return (
      <NoAccess page="Assistant" title="No access to the assistant">
        Your role does not include the AI assistant; ask a workspace admin.
      </NoAccess>
    );
  const ai = aiProvider();
  const [usageOutcome, settingsOutcome] = await Promise.all([callTool(principal, "get_ai_usage", {}), callTool(principal, "get_ai_settings", {})]);
  const usage = (usageOutcome.ok ? usageOutcome.body.result.usage : null) as Usage | null;
  const settings = (settingsOutcome.ok ? settingsOutcome.body.result.settings : { brandVoice: null, namingConvention: null }) as {
    brandVoice: string | null;
    namingConvention: string | null;
  };
  const n = (x: number) => x.toLocaleString("en-US");
  return (
    <>
      <PageHeader
        title="Assistant"
        description={
          ai
            ? `Answers from your workspace's data, by ${ai.model} (${ai.provider}). Each answer says what it cost in AI credits.`
            : "Answers from your workspace's data, with AI credits metered per call."
        }
      />
      {!ai && (
        <div className="mb-6">
          <Alert tone="amber">
            No AI provider is configured, so the assistant cannot answer yet. Set <code>AI_PROVIDER</code>, <code>AI_MODEL</code> and <code>AI_API_KEY</code>{" "}
            (or <code>AI_BASE_URL</code> for a self-hosted server) and restart; see docs/ai.md.
          </Alert>
        </div>
      )}
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <AssistantChat connected={Boolean(ai)} />
        </div>
        <div className="space-y-6">
          <Card className="p-5">
            <h2 className="text-sm font-medium text-slate-600">AI credits</h2>
            {usage?.balance !== null && usage?.balance !== undefined && (
              <p className="mt-1 text-2xl font-semibold text-slate-900">
                <span data-testid="ai-balance">{n(usage.balance)}</span> <span className="text-sm font-normal text-slate-600">remaining</span>
              </p>
            )}
            <p className="mt-1 text-sm text-slate-600" data-testid="ai-spent">
              {usage
                ? `${n(usage.totalCredits)} spent in ${n(usage.calls)} ${usage.calls === 1 ? "call" : "calls"} over the last ${usage.days} days.`
                : "Usage is not available."}
            </p>
            {usage && usage.byMember.length > 0 && (
              <div className="mt-4 overflow-x-auto">
                <table className="w-full text-left text-sm" aria-label="Usage by member">
                  <TableHead columns={["Member", "Calls", "Credits"]} />
                  <tbody className="divide-y divide-slate-100">
                    {usage.byMember.map((m) => (
                      <tr key={m.userId}>
                        <td className="max-w-40 truncate px-4 py-2 text-slate-800">{m.name ?? m.email}</td>
                        <td className="px-4 py-2 text-slate-700">{n(m.calls)}</td>
                        <td className="px-4 py-2 text-slate-700">{n(m.credits)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {usage && usage.byFeature.length > 0 && (
              <div className="mt-4 overflow-x-auto">
                <table className="w-full text-left text-sm" aria-label="Usage by feature">
                  <TableHead columns={["Feature", "Calls", "Credits"]} />
                  <tbody className="divide-y divide-slate-100">
                    {usage.byFeature.map((f) => (
                      <tr key={f.feature}>
                        <td className="px-4 py-2 font-mono text-xs text-slate-800">{f.feature}</td>
                        <td className="px-4 py-2 text-slate-700">{n(f.calls)}</td>
                        <td className="px-4 py-2 text-slate-700">{n(f.credits)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Card>
          <AssistantSettings brandVoice={settings.brandVoice ?? ""} namingConvention={settings.namingConvention ?? ""} />
        </div>
      </div>
    </>
  );
}
