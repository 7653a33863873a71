import { randomBytes, timingSafeEqual } from "node:crypto";
import { cookies } from "next/headers";
import { getConfig } from "@/lib/services";

/**
 * The one-time state of a dashboard Connect flow (ad accounts, file storage): an httpOnly cookie scoped
 * to the flow's routes, naming the provider and the workspace, read once by the callback.
 */
export interface OAuthStateCookie {
  name: string;
  /** The routes that read it (start and callback). */
  path: string;
}

/** A new state for `provider` in the workspace, kept in the cookie for ten minutes; goes in the authorize URL. */
export async function issueOAuthState(cookie: OAuthStateCookie, provider: string, workspaceId: string): Promise<string> {
  const state = randomBytes(24).toString("base64url");
  (await cookies()).set(cookie.name, `${provider}.${workspaceId}.${state}`, {
    httpOnly: true,
    sameSite: "lax",
    secure: getConfig().publicBaseUrl.startsWith("https://"),
    path: cookie.path,
    maxAge: 600,
  });
  return state;
}

/**
 * Whether the callback's `state` is the one this browser was given for `provider` in the workspace.
 * The cookie is deleted either way: a state answers one callback.
 */
export async function takeOAuthState(cookie: OAuthStateCookie, provider: string, workspaceId: string, returned: string): Promise<boolean> {
  const jar = await cookies();
  const saved = jar.get(cookie.name)?.value ?? "";
  jar.delete({ name: cookie.name, path: cookie.path });
  const [savedProvider, savedWorkspace, state] = saved.split(".");
  if (!state || savedProvider !== provider || savedWorkspace !== workspaceId) return false;
  const a = Buffer.from(state);
  const b = Buffer.from(returned);
  return a.length === b.length && timingSafeEqual(a, b);
}
