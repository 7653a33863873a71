import { expect } from "vitest";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { callTool, toolResult } from "../tools/helpers";
import { adWithComments, allComments, platformComments } from "./helpers";

/** One REST scenario per moderation tool (spread into tests/tools/tool-calls.ts TOOL_CALLS). */
export const MODERATION_TOOL_CALLS: Record<string, (t: Tenant) => Promise<void>> = {
  async list_ad_comments(t) {
    const { ad, comments } = await adWithComments(t, ["First question", "Second question", "Third remark"]);
    const page1 = await toolResult(t.key, "list_ad_comments", { limit: 2 });
    const page2 = await toolResult(t.key, "list_ad_comments", { limit: 2, cursor: page1.nextCursor });
    expect([...page1.comments, ...page2.comments].map((c: any) => c.message)).toEqual(["Third remark", "Second question", "First question"]);
    expect(page2.nextCursor).toBeNull();
    expect(comments[0]).toMatchObject({
      adId: ad.id,
      adExternalId: ad.externalId,
      adName: ad.name,
      state: "new",
      authorName: "Test Person",
      reply: null,
      platform: "platform_a",
    });
    expect((await allComments(t, { search: "QUESTION" })).map((c) => c.message)).toEqual(["Second question", "First question"]);
    expect(await allComments(t, { adId: "ad_unknown" })).toEqual([]);
    await toolResult(t.key, "hide_ad_comments", { ids: [comments[2].id] });
    expect((await allComments(t, { state: ["hidden"] })).map((c) => c.id)).toEqual([comments[2].id]);
    expect((await callTool(t.key, "list_ad_comments", { state: ["gone"] })).body.error.code).toBe("invalid_input");
  },

  async get_ad_comment_audit(t) {
    const { comments } = await adWithComments(t, ["Audit me"]);
    await toolResult(t.key, "hide_ad_comments", { ids: [comments[0].id] });
    await toolResult(t.key, "unhide_ad_comments", { ids: [comments[0].id] });
    const { comment, audit } = await toolResult(t.key, "get_ad_comment_audit", { id: comments[0].id });
    expect(comment.state).toBe("new");
    expect(audit.map((a: any) => [a.action, a.actor])).toEqual([
      ["hide", { kind: "user", userId: t.ownerUserId, apiKeyId: t.keyId }],
      ["unhide", { kind: "user", userId: t.ownerUserId, apiKeyId: t.keyId }],
    ]);
    const other = await createTenant();
    expect((await callTool(other.key, "get_ad_comment_audit", { id: comments[0].id })).status).toBe(404);
  },

  async hide_ad_comments(t) {
    const { comments } = await adWithComments(t, ["Hide one", "Hide two", "Keep"]);
    const { results } = await toolResult(t.key, "hide_ad_comments", { ids: [comments[0].id, comments[1].id] });
    expect(results.map((r: any) => [r.id, r.ok, r.comment.state])).toEqual([
      [comments[0].id, true, "hidden"],
      [comments[1].id, true, "hidden"],
    ]);
    const platform = await platformComments(t);
    expect(
      platform
        .filter((c) => c.hidden)
        .map((c) => c.message)
        .sort(),
    ).toEqual(["Hide one", "Hide two"]);
  },

  async unhide_ad_comments(t) {
    const { comments } = await adWithComments(t, ["Hidden then shown"]);
    await toolResult(t.key, "hide_ad_comments", { ids: [comments[0].id] });
    const { results } = await toolResult(t.key, "unhide_ad_comments", { ids: [comments[0].id] });
    expect(results[0]).toMatchObject({ ok: true, comment: { state: "new" } });
    expect((await platformComments(t)).find((c) => c.externalId === comments[0].externalId).hidden).toBe(false);
  },

  async delete_ad_comments(t) {
    const { comments } = await adWithComments(t, ["Delete me", "Stay"]);
    const { results } = await toolResult(t.key, "delete_ad_comments", { ids: [comments[0].id] });
    expect(results[0]).toMatchObject({ ok: true, comment: { state: "deleted" } });
    expect((await platformComments(t)).find((c) => c.externalId === comments[0].externalId).deleted).toBe(true);
    const again = await toolResult(t.key, "hide_ad_comments", { ids: [comments[0].id] });
    expect(again.results[0]).toMatchObject({ ok: false, error: { code: "conflict" } });
  },

  async reply_to_ad_comment(t) {
    const { comments } = await adWithComments(t, ["Do you ship to Spain?"]);
    const { comment } = await toolResult(t.key, "reply_to_ad_comment", { id: comments[0].id, message: "Yes, in 3 days." });
    expect(comment).toMatchObject({ state: "replied", reply: { externalId: expect.any(String), message: "Yes, in 3 days." } });
    const reply = (await platformComments(t)).find((c) => c.externalId === comment.reply.externalId);
    expect(reply).toMatchObject({ parentExternalId: comments[0].externalId, byPage: true, message: "Yes, in 3 days." });
    // The same text again (a retry, a double submit, two at once) is the same reply on the platform; another text is a new one.
    const twice = await Promise.all([0, 1].map(() => toolResult(t.key, "reply_to_ad_comment", { id: comments[0].id, message: "Yes, in 3 days." })));
    expect(twice.map((r) => r.comment.reply.externalId)).toEqual([comment.reply.externalId, comment.reply.externalId]);
    const other = await toolResult(t.key, "reply_to_ad_comment", { id: comments[0].id, message: "Free shipping too." });
    expect(other.comment.reply.externalId).not.toBe(comment.reply.externalId);
    const replies = (await platformComments(t)).filter((c) => c.parentExternalId === comments[0].externalId);
    expect(replies.map((c) => c.message).sort()).toEqual(["Free shipping too.", "Yes, in 3 days."]);
    // Asked again later, the same reply is not audited again either.
    await toolResult(t.key, "reply_to_ad_comment", { id: comments[0].id, message: "Free shipping too." });
    const { audit } = await toolResult(t.key, "get_ad_comment_audit", { id: comments[0].id });
    expect(audit.filter((a: any) => a.action === "reply" && a.detail === "Free shipping too.")).toHaveLength(1);
    expect((await callTool(t.key, "reply_to_ad_comment", { id: comments[0].id, message: "  " })).body.error.code).toBe("invalid_input");
  },

  async list_moderation_rules(t) {
    const { rule: a } = await toolResult(t.key, "create_moderation_rule", { keyword: "spam" });
    const { rule: b } = await toolResult(t.key, "create_moderation_rule", { keyword: "free followers" });
    const page1 = await toolResult(t.key, "list_moderation_rules", { limit: 1 });
    const page2 = await toolResult(t.key, "list_moderation_rules", { limit: 1, cursor: page1.nextCursor });
    expect([...page1.rules, ...page2.rules].map((r: any) => r.id)).toEqual([b.id, a.id]);
  },

  async create_moderation_rule(t) {
    const { rule } = await toolResult(t.key, "create_moderation_rule", { keyword: "  Arnaque  totale " });
    expect(rule).toMatchObject({ keyword: "Arnaque totale", createdBy: t.ownerUserId });
    expect((await callTool(t.key, "create_moderation_rule", { keyword: "ARNAQUE TOTALE" })).status).toBe(409);
    expect((await callTool(t.key, "create_moderation_rule", { keyword: "!!!" })).body.error.code).toBe("invalid_input");
  },

  async delete_moderation_rule(t) {
    const { rule } = await toolResult(t.key, "create_moderation_rule", { keyword: "gone" });
    expect(await toolResult(t.key, "delete_moderation_rule", { id: rule.id })).toEqual({ ok: true });
    expect((await toolResult(t.key, "list_moderation_rules", {})).rules).toEqual([]);
    expect((await callTool(t.key, "delete_moderation_rule", { id: rule.id })).status).toBe(404);
  },
};
