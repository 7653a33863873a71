import { issueOAuthState, takeOAuthState } from "./oauth-state";
import { completePendingGrant, connectFromAuthorization, getPendingGrant, type PendingGrantView } from "@/lib/ad-accounts/pending-grants";
import type { Principal } from "@/lib/auth/principal";

export type { PendingGrantView };
import { can } from "@/lib/auth/authorize";
import { AppError } from "@/lib/errors";
import type { Platform } from "@/lib/generated/prisma/enums";
import { log } from "@/lib/log";
import { authorizeUrl, oauthAppId } from "@/lib/platforms";
import { getConfig } from "@/lib/services";
import { currentPrincipal } from "./current";

/**
 * The dashboard's Connect flow for live ad accounts: start sends the browser to the platform's
 * authorization page with a one-time state (kept in an httpOnly cookie with the workspace), and
 * the callback checks it, exchanges the code and connects the accounts, then returns to the page.
 */
const STATE_COOKIE = { name: "adloom_adaccount_oauth", path: "/api/ad-accounts/oauth" };
const PAGE = "/dashboard/settings/ad-accounts";

export function isPlatform(value: string): value is Platform {
  return value === "platform_a" || value === "platform_b";
}

const redirectUri = (platform: Platform) => `${getConfig().publicBaseUrl}/api/ad-accounts/oauth/${platform}/callback`;
// Back to the page on the host the browser used (relative), where its session cookie lives.
const back = (params: Record<string, string>) => new Response(null, { status: 303, headers: { Location: `${PAGE}?${new URLSearchParams(params)}` } });

export async function startConnect(platform: Platform): Promise<Response> {
  const principal = await currentPrincipal();
  if (!principal) return new Response(null, { status: 303, headers: { Location: `/sign-in?callbackUrl=${encodeURIComponent(PAGE)}` } });
  if (!can(principal, "adaccounts.manage")) return back({ error: "Only owners and admins connect ad accounts." });
  if (!oauthAppId(platform)) {
    const env = platform === "platform_a" ? "PLATFORM_A" : "PLATFORM_B";
    return back({ error: `Connecting ${platform} needs the platform app: the operator sets ${env}_APP_ID and ${env}_APP_SECRET.` });
  }
  const state = await issueOAuthState(STATE_COOKIE, platform, principal.workspaceId);
  return new Response(null, { status: 303, headers: { Location: authorizeUrl(platform, { state, redirectUri: redirectUri(platform) }) } });
}

export async function finishConnect(platform: Platform, query: URLSearchParams): Promise<Response> {
  const principal = await currentPrincipal();
  if (!principal || !(await takeOAuthState(STATE_COOKIE, platform, principal.workspaceId, query.get("state") ?? ""))) {
    return back({ error: "That authorization could not be matched to this browser's Connect request; please start again." });
  }
  if (!can(principal, "adaccounts.manage")) return back({ error: "Only owners and admins connect ad accounts." });
  // Meta sends `code` (or `error_description` when the user declined); TikTok sends `auth_code`.
  const code = query.get("code") ?? query.get("auth_code");
  if (!code) return back({ error: `${platform} did not authorize the app${query.get("error_description") ? `: ${query.get("error_description")}` : ""}.` });
  try {
    const outcome = await connectFromAuthorization(principal, platform, { code, redirectUri: redirectUri(platform) });
    // Several accounts or Pages: the marketer picks on the page; the token stays here, sealed.
    if (outcome.kind === "pending") return back({ choose: outcome.pendingId });
    return connectedBack(outcome);
  } catch (err) {
    if (err instanceof AppError) return back({ error: err.message.slice(0, 500) });
    log.error("ad account connect failed", { component: "ad-accounts", platform, err });
    return back({ error: `Connecting ${platform} failed unexpectedly; please try again.` });
  }
}

function connectedBack({ connected, failed }: { connected: unknown[]; failed: { externalAccountId: string; message: string }[] }): Response {
  return back({
    connected: String(connected.length),
    ...(failed.length
      ? {
          error: failed
            .map((f) => `${f.externalAccountId}: ${f.message}`)
            .join("; ")
            .slice(0, 500),
        }
      : {}),
  });
}

/** The choice form's submit: the picked accounts (`account`, repeated) and Page (`page`) of a pending grant. */
export async function finishChoice(pendingId: string, form: FormData): Promise<Response> {
  const principal = await currentPrincipal();
  if (!principal) return new Response(null, { status: 303, headers: { Location: `/sign-in?callbackUrl=${encodeURIComponent(PAGE)}` } });
  if (!can(principal, "adaccounts.manage")) return back({ error: "Only owners and admins connect ad accounts." });
  try {
    const accountIds = form.getAll("account").map(String);
    const page = form.get("page");
    return connectedBack(await completePendingGrant(principal, pendingId, { accountIds, pageId: page ? String(page) : null }));
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    // A bad pick keeps the choice open; a missing or expired grant goes back to the list.
    return back(err.code === "invalid_input" ? { choose: pendingId, error: err.message } : { error: err.message.slice(0, 500) });
  }
}

/** The page's view of a pending choice: the candidates, or why it cannot be completed (missing, foreign, expired). */
export async function pendingChoice(principal: Principal, id: string): Promise<{ grant: PendingGrantView | null; error: string | null }> {
  try {
    return { grant: await getPendingGrant(principal, id), error: null };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { grant: null, error: err.message };
  }
}
