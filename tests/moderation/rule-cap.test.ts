/**
 * The cap on a workspace's keyword rules holds when rules are added at the same moment, in-process against a
 * real database: the additions take turns, so five at once at 498 rules make 500, and the rest are refused.
 * And a rule saved under an older folding (its stored `normalized`) is matched and compared as the folding is now.
 */
import { describe, expect, it } from "vitest";
import { useFreshDatabase } from "../helpers/in-process-db";

await useFreshDatabase("moderation_rule_cap");
const { createWorkspace } = await import("@/lib/workspaces/workspaces");
const { principalForUser } = await import("@/lib/session/principal");
const { getDb } = await import("@/lib/db/client");
const { createModerationRule, rulesForMatching } = await import("@/lib/moderation/rules");
const { MODERATION_LIMITS } = await import("@/lib/moderation/moderation-schema");

describe("keyword rules per workspace", () => {
  it("rules added at the same moment cannot pass the cap together", async () => {
    const { workspaceId, ownerUserId } = await createWorkspace({ name: "Rule cap", plan: "pro" });
    const principal = (await principalForUser(ownerUserId, workspaceId))!;
    const cap = MODERATION_LIMITS.rulesPerWorkspace;
    await getDb().moderationRule.createMany({
      data: Array.from({ length: cap - 2 }, (_, i) => ({
        id: `modrule_seed${i}`,
        workspaceId,
        keyword: `seed ${i}`,
        normalized: `seed ${i}`,
        createdById: ownerUserId,
      })),
    });
    const answers = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => createModerationRule(principal, { keyword: `late ${i}` })));
    expect(answers.filter((a) => a.status === "fulfilled")).toHaveLength(2);
    for (const refused of answers.filter((a) => a.status === "rejected")) {
      expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: "limit_exceeded", status: 400 });
    }
    expect(await getDb().moderationRule.count({ where: { workspaceId } })).toBe(cap);
  });

  it("a rule saved under an older folding matches, and conflicts, as the folding is now", async () => {
    const { workspaceId, ownerUserId } = await createWorkspace({ name: "Rule folding", plan: "pro" });
    const principal = (await principalForUser(ownerUserId, workspaceId))!;
    // What the folding before full case folding stored for "Straße".
    await getDb().moderationRule.create({ data: { id: "modrule_oldfold", workspaceId, keyword: "Straße", normalized: "straße", createdById: ownerUserId } });
    // What the first folding (every mark removed, kana apart) stored for "バカ".
    await getDb().moderationRule.create({ data: { id: "modrule_oldkana", workspaceId, keyword: "バカ", normalized: "ハカ", createdById: ownerUserId } });
    expect(await rulesForMatching(workspaceId)).toEqual([
      { id: "modrule_oldfold", keyword: "Straße", normalized: "strasse" },
      { id: "modrule_oldkana", keyword: "バカ", normalized: "ばか" },
    ]);
    await expect(createModerationRule(principal, { keyword: "STRASSE" })).rejects.toMatchObject({ code: "conflict" });
    await expect(createModerationRule(principal, { keyword: "ばか" })).rejects.toMatchObject({ code: "conflict" });
    // ハカ folds to はか now, so the old rule's stale key no longer stands in its way.
    await expect(createModerationRule(principal, { keyword: "ハカ" })).resolves.toBeTruthy();
    await expect(createModerationRule(principal, { keyword: "sp\u200Bam" })).resolves.toBeTruthy();
    await expect(createModerationRule(principal, { keyword: "ｓｐａｍ" })).rejects.toMatchObject({ code: "conflict" });
    expect((await getDb().moderationRule.findMany({ where: { workspaceId }, select: { normalized: true } })).map((r) => r.normalized).sort()).toEqual([
      "spam",
      "straße",
      "はか",
      "ハカ",
    ]);
  });
});
