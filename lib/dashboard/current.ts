import { cookies, headers } from "next/headers";
import { cache } from "react";
import { type MemberFrame, memberFrame, type UserClock } from "@/lib/account/profile";
import { redirect } from "next/navigation";
import { auth } from "@/auth";
import type { Principal } from "@/lib/auth/principal";
import { ACTIVE_WORKSPACE_COOKIE, principalForUser } from "@/lib/session/principal";

/** The signed-in user's id in a server component or action, or null. */
export async function currentUserId(): Promise<string | null> {
  const session = await auth();
  return session?.user?.id ?? null;
}

/** The dashboard principal (active workspace) in a server component or action, or null when signed out / no workspace. */
export async function currentPrincipal(): Promise<Principal | null> {
  const userId = await currentUserId();
  if (!userId) return null;
  const preferred = (await cookies()).get(ACTIVE_WORKSPACE_COOKIE)?.value;
  return principalForUser(userId, preferred);
}

/** The dashboard principal; signed-out visitors are sent to the sign-in page, users without a workspace to onboarding. */
export async function requirePrincipal(): Promise<Principal> {
  const userId = await currentUserId();
  if (!userId) redirect(await signInUrl());
  const preferred = (await cookies()).get(ACTIVE_WORKSPACE_COOKIE)?.value;
  const principal = await principalForUser(userId, preferred);
  if (!principal) redirect("/welcome");
  return principal;
}

/** The sign-in page, returning to the dashboard page that was asked for (set by proxy.ts). */
async function signInUrl(): Promise<string> {
  const asked = (await headers()).get("x-adloom-path");
  return asked?.startsWith("/dashboard") ? `/sign-in?callbackUrl=${encodeURIComponent(asked)}` : "/sign-in";
}

/** Remembers the active workspace for this browser (validated against memberships on every use). */
export async function setActiveWorkspaceCookie(workspaceId: string): Promise<void> {
  (await cookies()).set(ACTIVE_WORKSPACE_COOKIE, workspaceId, { httpOnly: true, sameSite: "lax", path: "/", maxAge: 365 * 86_400 });
}

/** The member's frame, read once per request however many server components of the page ask for it. */
const currentFrame = cache(async (userId: string): Promise<MemberFrame | null> => memberFrame(userId, (await headers()).get("accept-language")));

/** The signed-in member's date format (profile zone and locale; the browser's language until they choose one). */
export async function currentClock(userId: string): Promise<UserClock> {
  return (await currentFrame(userId))?.clock ?? { timeZone: "UTC", locale: "en-US" };
}

/** The signed-in member's address and whether they have confirmed it (null: no such user). */
export async function currentEmailStatus(userId: string): Promise<{ email: string; verified: boolean } | null> {
  const frame = await currentFrame(userId);
  return frame && { email: frame.email, verified: frame.emailVerified };
}
