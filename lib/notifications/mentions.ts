import { getDb } from "@/lib/db/client";

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The members a text mentions: `@` followed by a member's full name, email address or the part of
 * the address before the `@` (case-insensitive, ending at a character that cannot continue it).
 */
export async function mentionedMembers(workspaceId: string, text: string): Promise<string[]> {
  if (!text.includes("@")) return [];
  const members = await getDb().membership.findMany({ where: { workspaceId }, select: { userId: true, user: { select: { name: true, email: true } } } });
  return members
    .filter(({ user }) => {
      const handles = [user.email, user.name, user.email.split("@")[0]!].filter((h) => h.trim().length > 0);
      return handles.some((h) => new RegExp(`(^|[^\\w.])@${escapeRegExp(h)}(?![\\w@-]|\\.\\w)`, "i").test(text));
    })
    .map((m) => m.userId);
}
