import { getDb } from "@/lib/db/client";
import { badRequest, notFound } from "@/lib/errors";
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN, verifyPassword } from "@/lib/session/password";
import { recordSecurityEvent } from "@/lib/session/security-events";
import { throttledPasswordCheck } from "@/lib/session/sign-in-throttle";
import { createWorkspace } from "@/lib/workspaces/workspaces";

/** Whether the runtime knows this IANA time zone ("Europe/Berlin", "UTC"). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The canonical form of a BCP 47 locale the runtime can format dates in ("de-de" -> "de-DE"), or null. */
export function canonicalLocale(value: string): string | null {
  try {
    const [canonical] = Intl.getCanonicalLocales(value);
    return canonical && Intl.DateTimeFormat.supportedLocalesOf(canonical).length > 0 ? canonical : null;
  } catch {
    return null;
  }
}

/** The first locale of an Accept-Language header the runtime can format in ("de-DE,de;q=0.9" -> "de-DE"), or null. */
export function localeFromAcceptLanguage(header: string | null | undefined): string | null {
  for (const part of (header ?? "").split(",")) {
    const tag = part.split(";")[0]?.trim();
    if (tag && tag !== "*") {
      const locale = canonicalLocale(tag);
      if (locale) return locale;
    }
  }
  return null;
}

/** How one member reads dates and times (mirrors MemberClock in components/dashboard/format.ts). */
export interface UserClock {
  timeZone: string;
  locale: string;
}

export interface Profile {
  name: string;
  email: string;
  /** IANA zone every dashboard time is shown in. */
  timeZone: string;
  /** BCP 47 locale every dashboard date is written in; null until chosen (the browser's language is used). */
  locale: string | null;
  hasPassword: boolean;
}

export async function getProfile(userId: string): Promise<Profile> {
  const user = await getDb().user.findUnique({ where: { id: userId }, select: { name: true, email: true, timeZone: true, locale: true, passwordHash: true } });
  if (!user) throw notFound("User");
  return { name: user.name, email: user.email, timeZone: user.timeZone ?? "UTC", locale: user.locale, hasPassword: user.passwordHash !== null };
}

/** The zone the user's dashboard shows times in (UTC until they choose one). */
export async function userTimeZone(userId: string): Promise<string> {
  const user = await getDb().user.findUnique({ where: { id: userId }, select: { timeZone: true } });
  return user?.timeZone ?? "UTC";
}

/** What every dashboard page shows of its member beside the page itself. */
export interface MemberFrame {
  /** How they read dates: their profile's zone and locale; without a chosen locale the browser's, else en-US. */
  clock: UserClock;
  email: string;
  emailVerified: boolean;
}

/** The member's frame in one read (`acceptLanguage`: the browser's header, for a member who chose no locale); null for no such user. */
export async function memberFrame(userId: string, acceptLanguage?: string | null): Promise<MemberFrame | null> {
  const user = await getDb().user.findUnique({ where: { id: userId }, select: { timeZone: true, locale: true, email: true, emailVerifiedAt: true } });
  if (!user) return null;
  const clock = { timeZone: user.timeZone ?? "UTC", locale: user.locale ?? localeFromAcceptLanguage(acceptLanguage) ?? "en-US" };
  return { clock, email: user.email, emailVerified: user.emailVerifiedAt !== null };
}

/** Changes the display name, the time zone and (when given) the locale. */
export async function updateProfile(userId: string, input: { name: string; timeZone: string; locale?: string }): Promise<Profile> {
  const name = input.name.trim();
  if (!name || name.length > 100) throw badRequest("Enter a name of 1 to 100 characters");
  if (!isTimeZone(input.timeZone)) throw badRequest(`Unknown time zone ${input.timeZone}`);
  const locale = input.locale === undefined ? undefined : canonicalLocale(input.locale);
  if (locale === null) throw badRequest(`Unknown locale ${input.locale}`);
  await getDb().user.update({ where: { id: userId }, data: { name, timeZone: input.timeZone, ...(locale ? { locale } : {}) } });
  return getProfile(userId);
}

/**
 * Changes the password; the current one must be given when the account has one (OAuth-only accounts set a first one).
 * Every session ends, this one too (a stateless session cannot be kept alone): the person signs in with the new one.
 * Past 10 wrong current passwords in 15 minutes it answers 429 `rate_limited` without checking. Recorded as a security
 * event, and the account's address is told (lib/session/security-notice.ts).
 */
export async function changePassword(userId: string, input: { current: string; next: string }): Promise<void> {
  if (input.next.length < PASSWORD_MIN || input.next.length > PASSWORD_MAX)
    throw badRequest(`Use ${PASSWORD_MIN} to ${PASSWORD_MAX} characters for the new password`);
  const db = getDb();
  const user = await db.user.findUnique({ where: { id: userId }, select: { passwordHash: true } });
  if (!user) throw notFound("User");
  const passwordHash = user.passwordHash;
  // Counted per account (lib/session/sign-in-throttle.ts): whoever holds a session cannot try every password.
  if (passwordHash && !(await throttledPasswordCheck(userId, () => verifyPassword(input.current, passwordHash))))
    throw badRequest("The current password is not right");
  const nextHash = await hashPassword(input.next);
  const notify = await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { passwordHash: nextHash, sessionVersion: { increment: 1 } } });
    return recordSecurityEvent(tx, { userId, kind: "password_changed" });
  });
  await notify();
}

/** Creates another workspace owned by the user, on the 14-day trial. */
export async function createOwnWorkspace(userId: string, input: { name: string }): Promise<{ workspaceId: string }> {
  const name = input.name.trim();
  if (!name || name.length > 100) throw badRequest("Name the workspace (1 to 100 characters)");
  const user = await getDb().user.findUnique({ where: { id: userId }, select: { email: true } });
  if (!user) throw notFound("User");
  const { workspaceId } = await createWorkspace({ name, plan: null, ownerEmail: user.email });
  return { workspaceId };
}
