import { describe, expect, it } from "vitest";
import { admin, createMemberKey, createTenant } from "../helpers/fixtures";
import { advance, pausedAd } from "../ads/helpers";
import { callTool, toolResult } from "../tools/helpers";
import { adWithComments, allComments, authorDeletes, platformComments, postComments, pull } from "./helpers";

describe("keyword rules", () => {
  it("hide exactly the comments containing a keyword as whole words, ignoring case and accents, with the rule in the audit", async () => {
    const t = await createTenant();
    const { rule: arnaque } = await toolResult(t.key, "create_moderation_rule", { keyword: "arnaque" });
    const { rule: scam } = await toolResult(t.key, "create_moderation_rule", { keyword: "SCAM" });
    const { rule: phrase } = await toolResult(t.key, "create_moderation_rule", { keyword: "crème brûlée" });
    const matching = ["C'est une ARNAQUÉ, fuyez", "Total scam!", "Best CREME BRULEE ever", "scam", "Arnaque"];
    const clean = ["Scampi recipe please", "arnaques en série", "scammer? no", "Crème anglaise", "Where do you ship?"];
    const { comments, summary } = await adWithComments(t, [...matching, ...clean]);
    expect(summary.accounts).toEqual([expect.objectContaining({ fetched: 10, added: 10, hiddenByRules: 5, ruleFailures: 0 })]);

    const inbox = await allComments(t);
    expect(inbox).toHaveLength(10);
    const hidden = inbox
      .filter((c) => c.state === "hidden")
      .map((c) => c.message)
      .sort();
    expect(hidden).toEqual([...matching].sort());
    expect(
      inbox
        .filter((c) => c.state === "new")
        .map((c) => c.message)
        .sort(),
    ).toEqual([...clean].sort());
    // The platform agrees.
    const onPlatform = await platformComments(t);
    expect(
      onPlatform
        .filter((c) => c.hidden)
        .map((c) => c.message)
        .sort(),
    ).toEqual([...matching].sort());

    // Each hidden one names the first matching rule (oldest first).
    const audit = async (i: number) => (await toolResult(t.key, "get_ad_comment_audit", { id: comments[i].id })).audit;
    expect(await audit(0)).toEqual([
      { id: expect.any(String), action: "hide", actor: { kind: "rule", ruleId: arnaque.id, keyword: "arnaque" }, detail: null, createdAt: expect.any(String) },
    ]);
    expect((await audit(1))[0].actor).toEqual({ kind: "rule", ruleId: scam.id, keyword: "SCAM" });
    expect((await audit(2))[0].actor).toEqual({ kind: "rule", ruleId: phrase.id, keyword: "crème brûlée" });
    expect(await audit(5)).toEqual([]);

    // A rule applies to comments pulled after it exists; deleting a rule keeps what it hid hidden.
    await toolResult(t.key, "delete_moderation_rule", { id: scam.id });
    await toolResult(t.key, "create_moderation_rule", { keyword: "ship" });
    // Words in text without spaces (Chinese) and words with an invisible character inside are words too; a Korean
    // word takes its particles (but is not found inside another word), and katakana is hiragana (バ as ば, not は).
    const { rule: fraud } = await toolResult(t.key, "create_moderation_rule", { keyword: "诈骗" });
    await toolResult(t.key, "create_moderation_rule", { keyword: "스팸" });
    const { rule: baka } = await toolResult(t.key, "create_moderation_rule", { keyword: "ばか" });
    const later = await adWithComments(
      t,
      [
        "We ship? Total scam",
        "Do you SHIP to Spain?",
        "这是诈骗，别买",
        "we sh\u200Bip today",
        "스팸을 보내지 마세요",
        "バカじゃないの",
        "노스팸 정책",
        "ハカです",
      ],
      { ad: comments[0] && { externalId: comments[0].adExternalId } },
    );
    expect(later.comments.map((c: any) => c.state)).toEqual(["hidden", "hidden", "hidden", "hidden", "hidden", "hidden", "new", "new"]);
    expect((await toolResult(t.key, "get_ad_comment_audit", { id: later.comments[5].id })).audit[0].actor).toEqual({
      kind: "rule",
      ruleId: baka.id,
      keyword: "ばか",
    });
    expect((await toolResult(t.key, "get_ad_comment_audit", { id: later.comments[2].id })).audit[0].actor).toEqual({
      kind: "rule",
      ruleId: fraud.id,
      keyword: "诈骗",
    });
    expect((await allComments(t)).find((c) => c.message === "Where do you ship?").state).toBe("new");
    expect((await allComments(t)).find((c) => c.message === "Total scam!").state).toBe("hidden");
  }, 120_000);
});

describe("manual moderation", () => {
  it("reaches the platform, then the inbox, with who acted in the audit; deleted comments leave the platform's list", async () => {
    const t = await createTenant();
    const editor = await createMemberKey(t, { role: "editor", scopes: ["moderate"] });
    const { comments } = await adWithComments(t, ["one", "two", "three"]);
    const [one, two, three] = comments;
    const hide = await toolResult(editor.key, "hide_ad_comments", { ids: [one.id, two.id, one.id] });
    expect(hide.results.map((r: any) => r.id)).toEqual([one.id, two.id]);
    await toolResult(t.key, "reply_to_ad_comment", { id: two.id, message: "Thanks!" });
    await toolResult(t.key, "delete_ad_comments", { ids: [three.id] });

    const platform = await platformComments(t);
    const byId = (id: string) => platform.find((c) => c.externalId === id);
    expect(byId(one.externalId)).toMatchObject({ hidden: true, deleted: false });
    expect(byId(two.externalId)).toMatchObject({ hidden: true });
    expect(byId(three.externalId)).toMatchObject({ deleted: true });
    expect(platform.filter((c) => c.byPage)).toEqual([expect.objectContaining({ parentExternalId: two.externalId, message: "Thanks!", deleted: false })]);

    const states = Object.fromEntries((await allComments(t)).map((c) => [c.message, c.state]));
    // A hidden comment that gets a reply stays hidden; the reply is on it.
    expect(states).toEqual({ one: "hidden", two: "hidden", three: "deleted" });
    const { comment, audit } = await toolResult(t.key, "get_ad_comment_audit", { id: two.id });
    expect(comment.reply).toEqual({ externalId: expect.any(String), message: "Thanks!" });
    expect(audit.map((a: any) => [a.action, a.actor.userId, a.actor.apiKeyId, a.detail])).toEqual([
      ["hide", editor.userId, editor.keyId, null],
      ["reply", t.ownerUserId, t.keyId, "Thanks!"],
    ]);
    expect((await toolResult(t.key, "unhide_ad_comments", { ids: [two.id] })).results[0].comment.state).toBe("replied");

    // The next pull does not bring the page's own reply in, nor the deleted comment back.
    await advance(t.workspaceId, 1);
    await pull(t);
    expect((await allComments(t)).map((c) => c.message).sort()).toEqual(["one", "three", "two"]);
  }, 120_000);

  it("a platform refusal leaves that comment as it was, with the platform's error, and the others done", async () => {
    const t = await createTenant();
    const { comments } = await adWithComments(t, ["fine comment", "sandbox-reject this one", "sandbox-terms this one"]);
    const [fine, reject, terms] = comments;
    const { results } = await toolResult(t.key, "hide_ad_comments", { ids: [reject.id, fine.id, terms.id] });
    expect(results[0]).toEqual({
      id: reject.id,
      ok: false,
      error: { code: "upstream_error", message: expect.stringContaining("refused to hide the comment") },
    });
    expect(results[1]).toMatchObject({ id: fine.id, ok: true, comment: { state: "hidden" } });
    expect(results[2]).toMatchObject({ id: terms.id, ok: false, error: { code: "invalid_input" } });

    const replied = await callTool(t.key, "reply_to_ad_comment", { id: reject.id, message: "hello" });
    expect(replied.status).toBe(502);
    expect(replied.body.error).toMatchObject({ code: "upstream_error", message: expect.stringContaining("sandbox-reject") });
    const deleted = await callTool(t.key, "delete_ad_comments", { ids: [reject.id] });
    expect(deleted.body.result.results[0].ok).toBe(false);

    for (const c of [reject, terms]) {
      const { comment, audit } = await toolResult(t.key, "get_ad_comment_audit", { id: c.id });
      expect(comment).toMatchObject({ state: "new", reply: null });
      expect(audit).toEqual([]);
    }
    const platform = await platformComments(t);
    expect(platform.filter((c) => c.hidden || c.deleted || c.byPage).map((c) => c.message)).toEqual(["fine comment"]);
  }, 120_000);

  it("a comment its author deleted on the platform is deleted from the inbox like any other; hiding it is refused saying so", async () => {
    const t = await createTenant();
    const { comments } = await adWithComments(t, ["deleted by its author", "also deleted by its author"]);
    const [gone, alsoGone] = comments;
    for (const c of comments) expect(await authorDeletes(t, c.externalId)).toMatchObject({ externalId: c.externalId, deleted: true });

    // What the delete asks for is so: done and recorded as a normal delete, not refused on every attempt.
    const deleted = await toolResult(t.key, "delete_ad_comments", { ids: [gone.id] });
    expect(deleted.results).toEqual([{ id: gone.id, ok: true, comment: expect.objectContaining({ state: "deleted" }) }]);
    const { audit } = await toolResult(t.key, "get_ad_comment_audit", { id: gone.id });
    expect(audit.map((a: any) => [a.action, a.actor.userId, a.actor.apiKeyId])).toEqual([["delete", t.ownerUserId, t.keyId]]);

    const hidden = await toolResult(t.key, "hide_ad_comments", { ids: [alsoGone.id] });
    expect(hidden.results).toEqual([
      { id: alsoGone.id, ok: false, error: { code: "invalid_input", message: expect.stringContaining(`no longer has comment ${alsoGone.externalId}`) } },
    ]);
    expect(hidden.results[0].error.message).toContain("delete it from the inbox");
    expect(Object.fromEntries((await allComments(t)).map((c) => [c.message, c.state]))).toEqual({
      "deleted by its author": "deleted",
      "also deleted by its author": "new",
    });
  }, 120_000);

  it("a rule the platform refuses to apply leaves the comment new, and a passing refusal is retried at the next pull", async () => {
    const t = await createTenant();
    await toolResult(t.key, "create_moderation_rule", { keyword: "blocked" });
    const { comments, summary } = await adWithComments(t, ["sandbox-reject blocked words", "blocked words"]);
    expect(summary.accounts[0]).toMatchObject({ hiddenByRules: 1, ruleFailures: 1 });
    expect(comments.map((c: any) => c.state)).toEqual(["new", "hidden"]);
    expect((await pull(t)).accounts[0]).toMatchObject({ added: 0, hiddenByRules: 0, ruleFailures: 1 });
  }, 120_000);
});

describe("pulling", () => {
  it("adds each comment once over repeated pulls, and takes new ones after the cursor", async () => {
    const t = await createTenant();
    const { ad, summary } = await adWithComments(t, ["a", "b"]);
    expect(summary.accounts[0]).toMatchObject({ fetched: 2, added: 2, capped: false });
    expect((await pull(t)).accounts[0]).toMatchObject({ fetched: 0, added: 0 });
    await postComments(t, ad.externalId, ["c"]);
    await advance(t.workspaceId, 1);
    expect((await pull(t)).accounts[0]).toMatchObject({ fetched: 1, added: 1 });
    await Promise.all([pull(t), pull(t)]);
    expect((await allComments(t)).map((c) => c.message)).toEqual(["c", "b", "a"]);
  }, 120_000);

  it("pulls the comments people leave on live ads as the sandbox delivers them", async () => {
    const t = await createTenant();
    const { ad, campaign, adSet } = await pausedAd(t.key);
    await toolResult(t.key, "activate_campaign", { id: campaign.id });
    await toolResult(t.key, "activate_ad_set", { id: adSet.id });
    await toolResult(t.key, "activate_ads", { adIds: [ad.id] });
    const delivered = await advance(t.workspaceId, 72);
    expect(delivered.comments).toBeGreaterThan(0);
    let added = 0;
    for (let capped = true; capped; ) {
      const { accounts } = await pull(t);
      added += accounts.reduce((n: number, a: any) => n + a.added, 0);
      capped = accounts.some((a: any) => a.capped);
    }
    expect(added).toBe(delivered.comments);
    const inbox = await allComments(t);
    expect(inbox).toHaveLength(delivered.comments);
    expect(new Set(inbox.map((c) => c.adId))).toEqual(new Set([ad.id]));
  }, 120_000);
});

describe("access", () => {
  it("answers 404 for another workspace's comments and rules, without acting on any", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const { comments } = await adWithComments(t, ["mine"]);
    const theirs = await adWithComments(other, ["theirs"]);
    const mixed = await callTool(t.key, "hide_ad_comments", { ids: [comments[0].id, theirs.comments[0].id] });
    expect(mixed.status).toBe(404);
    expect(mixed.body.error.message).toContain(theirs.comments[0].id);
    expect((await allComments(t))[0].state).toBe("new");
    expect((await callTool(t.key, "reply_to_ad_comment", { id: theirs.comments[0].id, message: "hi" })).status).toBe(404);
    expect((await callTool(t.key, "delete_ad_comments", { ids: [theirs.comments[0].id] })).status).toBe(404);
    expect((await callTool(t.key, "get_ad_comment_audit", { id: theirs.comments[0].id })).status).toBe(404);
    const { rule } = await toolResult(other.key, "create_moderation_rule", { keyword: "theirs" });
    expect((await callTool(t.key, "delete_moderation_rule", { id: rule.id })).status).toBe(404);
    expect((await toolResult(t.key, "list_moderation_rules", {})).rules).toEqual([]);
    expect((await allComments(other)).map((c) => c.state)).toEqual(["new"]);
  }, 120_000);

  it("needs the moderate scope to read or act, and a role with the permission", async () => {
    const t = await createTenant();
    const { comments } = await adWithComments(t, ["scoped"]);
    const adsOnly = await createMemberKey(t, { role: "admin", scopes: ["ads_view", "ads"] });
    for (const [name, args] of [
      ["list_ad_comments", {}],
      ["hide_ad_comments", { ids: [comments[0].id] }],
      ["create_moderation_rule", { keyword: "x" }],
    ] as const) {
      const res = await callTool(adsOnly.key, name, args);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
    }
    const viewer = await createMemberKey(t, { role: "viewer" });
    expect((await callTool(viewer.key, "list_ad_comments", {})).status).toBe(403);
    const moderator = await createMemberKey(t, { role: "editor", scopes: ["moderate"] });
    expect((await toolResult(moderator.key, "hide_ad_comments", { ids: [comments[0].id] })).results[0].ok).toBe(true);
    expect((await platformComments(t))[0].hidden).toBe(true);
  }, 120_000);

  it("admin moderation pull names an unknown workspace", async () => {
    await expect(admin(["moderation", "pull", "--workspace", "ws_nope"])).rejects.toThrow(/not_found/);
  });
});
