import type { Metadata } from "next";
import Link from "next/link";
import { Alert, PageHeader } from "@/components/ui/misc";
import { roleAllows } from "@/lib/dashboard/access";
import { SCOPE_DESCRIPTIONS, SCOPES } from "@/lib/auth/scopes";
import { grantableScopes, listApiKeys } from "@/lib/dashboard/account";
import { requirePrincipal } from "@/lib/dashboard/current";
import { planStatus } from "@/lib/dashboard/access";
import { listConnectedApps } from "@/lib/dashboard/account";
import { ApiKeysManager } from "./api-keys-manager";
import { ConnectedApps } from "./connected-apps";

export const metadata: Metadata = { title: "API keys" };
export const dynamic = "force-dynamic";

export default async function ApiKeysPage() {
  const principal = await requirePrincipal();
  const [keys, apps, plan] = [await listApiKeys(principal), await listConnectedApps(principal), planStatus(principal.workspace)];
  const grantable = grantableScopes(principal);
  const seesAll = roleAllows(principal.role, "team.manage");
  return (
    <>
      <PageHeader
        title="API keys"
        description={
          <>
            A key acts as you, in <strong>{principal.workspace.name}</strong>, with your role ({principal.role}). Send it as{" "}
            <code className="rounded bg-slate-100 px-1 py-0.5 text-xs">Authorization: Bearer &lt;key&gt;</code>.{" "}
            {seesAll ? "As an " + principal.role + ", you see every key of this workspace." : "You see the keys you created."}
          </>
        }
      />
      {!plan.apiAccess && (
        <div className="mb-6">
          <Alert tone="amber">
            API keys need the Pro plan; the free trial covers the dashboard only.{" "}
            <Link href="/dashboard/settings/plan" className="font-medium underline underline-offset-2">
              Go to Plan
            </Link>
          </Alert>
        </div>
      )}
      <ApiKeysManager
        keys={keys}
        canCreate={plan.apiAccess}
        scopes={SCOPES.map((s) => ({ id: s, description: SCOPE_DESCRIPTIONS[s], grantable: grantable.includes(s) }))}
        currentUserId={principal.userId}
      />
      <div className="mt-8">
        <ConnectedApps apps={apps} currentUserId={principal.userId} />
      </div>
    </>
  );
}
