import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { AppError, conflict, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { foldText } from "./keywords";
import { MODERATION_LIMITS, type ModerationRuleOut } from "./moderation-schema";

function toRule(row: { id: string; keyword: string; createdById: string | null; createdAt: Date }): ModerationRuleOut {
  return { id: row.id, keyword: row.keyword, createdBy: row.createdById, createdAt: row.createdAt.toISOString() };
}

/** The workspace's keyword rules, newest first. */
export async function listModerationRules(
  principal: Principal,
  input: { limit: number; cursor?: string },
): Promise<{ rules: ModerationRuleOut[]; nextCursor: string | null }> {
  const rows = await getDb().moderationRule.findMany({
    where: { workspaceId: principal.workspaceId, ...afterCursor(input.cursor) },
    orderBy: NEWEST_FIRST,
    take: input.limit + 1,
  });
  const page = toPage(rows, input.limit);
  return { rules: page.items.map(toRule), nextCursor: page.nextCursor };
}

/**
 * Every rule of the workspace, oldest first (the order a comment is checked in), with its keyword folded now:
 * a rule saved before the folding last changed (its stored `normalized`) matches as a new one would.
 */
export async function rulesForMatching(workspaceId: string): Promise<{ id: string; keyword: string; normalized: string }[]> {
  const rows = await getDb().moderationRule.findMany({
    where: { workspaceId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, keyword: true },
  });
  return rows.map((r) => ({ ...r, normalized: foldText(r.keyword) }));
}

/** Adds a keyword or phrase; one that folds to an existing rule's keyword is a conflict. Applies to comments pulled from now on. */
export async function createModerationRule(principal: Principal, input: { keyword: string }): Promise<{ rule: ModerationRuleOut }> {
  const keyword = input.keyword.trim().replace(/\s+/gu, " ");
  const normalized = foldText(keyword);
  if (!/[\p{L}\p{N}]/u.test(normalized)) throw new AppError("invalid_input", "Invalid input: keyword: needs at least one letter or digit");
  const db = getDb();
  const id = newId("modrule");
  const count = await db.$transaction(async (tx) => {
    // Additions to one workspace take turns, so rules added at the same moment cannot pass the cap together.
    await tx.$queryRaw`SELECT id FROM workspaces WHERE id = ${principal.workspaceId} FOR UPDATE`;
    const existing = await tx.moderationRule.findMany({ where: { workspaceId: principal.workspaceId }, select: { keyword: true } });
    if (existing.length >= MODERATION_LIMITS.rulesPerWorkspace) {
      throw new AppError("limit_exceeded", `A workspace holds at most ${MODERATION_LIMITS.rulesPerWorkspace} keyword rules; delete some first`);
    }
    // Compared as matching folds them (rulesForMatching), not by the stored `normalized` of older rules.
    if (existing.some((r) => foldText(r.keyword) === normalized)) return 0;
    const created = await tx.moderationRule.createMany({
      data: [{ id, workspaceId: principal.workspaceId, keyword, normalized, createdById: principal.userId }],
      skipDuplicates: true,
    });
    return created.count;
  });
  if (!count) throw conflict(`A rule for "${keyword}" already exists (keywords are compared without case and accents)`);
  return { rule: toRule(await db.moderationRule.findUniqueOrThrow({ where: { id } })) };
}

/** Removes a rule. Comments it hid stay hidden (their audit keeps the keyword). */
export async function deleteModerationRule(principal: Principal, input: { id: string }): Promise<{ ok: true }> {
  const { count } = await getDb().moderationRule.deleteMany({ where: { id: input.id, workspaceId: principal.workspaceId } });
  if (!count) throw notFound("Moderation rule");
  return { ok: true };
}
