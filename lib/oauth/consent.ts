import { isScope, type Scope } from "@/lib/auth/scopes";
import { scopesForRole } from "@/lib/api-keys/api-keys";
import { getDb } from "@/lib/db/client";
import type { Role } from "@/lib/generated/prisma/enums";
import { newId } from "@/lib/ids";
import { listUserWorkspaces } from "@/lib/workspaces/switcher";
import type { ValidAuthorizationRequest } from "./authorization-request";
import { redirectWith } from "./authorization-request";
import { OAuthError } from "./errors";
import { lifetimes } from "./lifetimes";
import { CODE_PREFIX, hashSecret, newSecret } from "./secrets";

export interface ConsentWorkspace {
  id: string;
  name: string;
  role: Role;
  /** The scopes this member may grant (their role's), in SCOPES order. */
  grantableScopes: Scope[];
  /** Pre-selected: what the client asked for, within the role. */
  defaultScopes: Scope[];
}

/** The workspaces the user may connect the client to, with what each role lets them grant. */
export async function consentWorkspaces(userId: string, request: ValidAuthorizationRequest): Promise<ConsentWorkspace[]> {
  const workspaces = await listUserWorkspaces(userId);
  return workspaces.map((w) => {
    const grantable = scopesForRole(w.role);
    return { id: w.id, name: w.name, role: w.role, grantableScopes: grantable, defaultScopes: request.requestedScopes.filter((s) => grantable.includes(s)) };
  });
}

/**
 * The user allowed the client: a one-time code for the chosen workspace and scopes (never beyond
 * the user's role there), returned as the URL to send the browser back to, with state echoed.
 * An empty scope list is a read-only connection (the reads every member may do).
 */
export async function approveConsent(
  userId: string,
  request: ValidAuthorizationRequest,
  choice: { workspaceId: string; scopes: string[] },
  issuer: string,
): Promise<string> {
  const workspace = (await listUserWorkspaces(userId)).find((w) => w.id === choice.workspaceId);
  if (!workspace) throw new OAuthError("invalid_request", "Choose one of your workspaces");
  const scopes = [...new Set(choice.scopes)];
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length) throw new OAuthError("invalid_scope", `Unknown scope: ${unknown.join(", ")}`);
  const allowed = scopesForRole(workspace.role);
  const tooWide = scopes.filter((s) => !allowed.includes(s as Scope));
  if (tooWide.length) throw new OAuthError("invalid_scope", `A ${workspace.role} cannot grant ${tooWide.join(", ")} in ${workspace.name}`);

  const code = newSecret(CODE_PREFIX);
  await getDb().oAuthAuthorizationCode.create({
    data: {
      id: newId("oacd"),
      hashedCode: hashSecret(code),
      clientId: request.client.id,
      userId,
      workspaceId: workspace.id,
      scopes,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      resource: request.resource,
      expiresAt: new Date(Date.now() + lifetimes().codeMs),
    },
  });
  return redirectWith(request.redirectUri, { code, state: request.state, iss: issuer });
}

/** The user said no: the client hears access_denied (state echoed). */
export function denyConsent(request: ValidAuthorizationRequest, issuer: string): string {
  return redirectWith(request.redirectUri, { error: "access_denied", error_description: "The user denied the request", state: request.state, iss: issuer });
}
