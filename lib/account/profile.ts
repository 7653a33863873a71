import { getDb } from "@/lib/db/client";
import { badRequest, notFound } from "@/lib/errors";
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN, verifyPassword } from "@/lib/session/password";
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

export interface Profile {
  name: string;
  email: string;
  /** IANA zone every dashboard time is shown in. */
  timeZone: string;
  hasPassword: boolean;
}

export async function getProfile(userId: string): Promise<Profile> {
  const user = await getDb().user.findUnique({ where: { id: userId }, select: { name: true, email: true, timeZone: true, passwordHash: true } });
  if (!user) throw notFound("User");
  return { name: user.name, email: user.email, timeZone: user.timeZone ?? "UTC", hasPassword: user.passwordHash !== null };
}

/** The zone the user's dashboard shows times in (UTC until they choose one). */
export async function userTimeZone(userId: string): Promise<string> {
  const user = await getDb().user.findUnique({ where: { id: userId }, select: { timeZone: true } });
  return user?.timeZone ?? "UTC";
}

/** Changes the display name and the time zone. */
export async function updateProfile(userId: string, input: { name: string; timeZone: string }): Promise<Profile> {
  const name = input.name.trim();
  if (!name || name.length > 100) throw badRequest("Enter a name of 1 to 100 characters");
  if (!isTimeZone(input.timeZone)) throw badRequest(`Unknown time zone ${input.timeZone}`);
  await getDb().user.update({ where: { id: userId }, data: { name, timeZone: input.timeZone } });
  return getProfile(userId);
}

/** Changes the password; the current one must be given when the account has one (OAuth-only accounts set a first one). */
export async function changePassword(userId: string, input: { current: string; next: string }): Promise<void> {
  if (input.next.length < PASSWORD_MIN || input.next.length > PASSWORD_MAX)
    throw badRequest(`Use ${PASSWORD_MIN} to ${PASSWORD_MAX} characters for the new password`);
  const db = getDb();
  const user = await db.user.findUnique({ where: { id: userId }, select: { passwordHash: true } });
  if (!user) throw notFound("User");
  if (user.passwordHash && !(await verifyPassword(input.current, user.passwordHash))) throw badRequest("The current password is not right");
  await db.user.update({ where: { id: userId }, data: { passwordHash: await hashPassword(input.next) } });
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
