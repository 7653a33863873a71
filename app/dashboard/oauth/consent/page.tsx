import type { Metadata } from "next";
import { dashboardOrigin } from "@/lib/dashboard/origin";
import { Alert, Card, PageHeader } from "@/components/ui/misc";
import { SCOPE_DESCRIPTIONS } from "@/lib/auth/scopes";
import { requirePrincipal } from "@/lib/dashboard/current";
import { AUTHORIZATION_PARAM_NAMES, readAuthorizationParams, validateAuthorizationRequest, type ValidAuthorizationRequest } from "@/lib/dashboard/account";
import { consentWorkspaces } from "@/lib/dashboard/account";
import { isOAuthError } from "@/lib/dashboard/account";
import { ConsentForm } from "./consent-form";

export const metadata: Metadata = { title: "Connect an app" };
export const dynamic = "force-dynamic";

export default async function ConsentPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const principal = await requirePrincipal();
  const raw = await searchParams;
  const params = readAuthorizationParams({ get: (name: string) => (typeof raw[name] === "string" ? raw[name] : null) });
  let request: ValidAuthorizationRequest;
  try {
    request = await validateAuthorizationRequest(params, await dashboardOrigin());
  } catch (err) {
    if (!isOAuthError(err)) throw err;
    return (
      <>
        <PageHeader title="This connection request is not valid" />
        <Alert>
          {err.description} ({err.error}). Start the connection again from your app.
        </Alert>
      </>
    );
  }
  const workspaces = await consentWorkspaces(principal.userId, request);
  const hidden = Object.fromEntries(AUTHORIZATION_PARAM_NAMES.filter((n) => params[n] != null).map((n) => [n, params[n]!]));
  return (
    <>
      <PageHeader
        title={`Connect ${request.client.name}`}
        description={
          <>
            <strong>{request.client.name}</strong> asks to use Adloom’s tools over MCP as you. After you allow it, you are sent back to{" "}
            <code className="break-all rounded bg-slate-100 px-1 py-0.5 text-xs">{new URL(request.redirectUri).host}</code>. You can revoke it any time on the
            API keys page.
          </>
        }
      />
      <Card className="max-w-3xl p-4 sm:p-6">
        <ConsentForm hidden={hidden} workspaces={workspaces} preferredWorkspaceId={principal.workspaceId} scopeDescriptions={SCOPE_DESCRIPTIONS} />
      </Card>
    </>
  );
}
