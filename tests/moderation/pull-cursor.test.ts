/**
 * The comment pull's cursor against a real database, in-process: comments planted on the sandbox
 * platform (equal timestamps across page boundaries), small caps, concurrent pulls, a lost cursor and
 * a restarted process, and the platform side of replies and deletes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { useFreshDatabase } from "../helpers/in-process-db";

await useFreshDatabase("comment_pull");
const { createWorkspace } = await import("@/lib/workspaces/workspaces");
const { getAdAccount, adapterFor } = await import("@/lib/platforms");
const { advanceSandbox, plantSandboxComments, sandboxClock, sandboxReplyCount } = await import("@/lib/platforms/sandbox/operator");
const { getDb } = await import("@/lib/db/client");
const pull = await import("@/lib/moderation/pull");

type Account = NonNullable<Awaited<ReturnType<typeof getAdAccount>>>;

async function accountWithComments(count: number, options: { sameTime?: boolean } = {}): Promise<{ workspaceId: string; account: Account; ids: string[] }> {
  const { workspaceId } = await createWorkspace({ name: `Pull ${Math.random()}`, plan: "pro" });
  const account = (await getAdAccount(workspaceId, "platform_a"))!;
  const clock = await sandboxClock(account);
  const base = clock.deliveredThrough.getTime() - 3_600_000;
  const run = String(Math.floor(Math.random() * 1e6)).padStart(6, "0");
  const ids = Array.from({ length: count }, (_, i) => `9${run}${String(i).padStart(10, "0")}`);
  await plantSandboxComments(
    account,
    ids.map((id, i) => ({
      id,
      adId: "1000",
      authorName: "Planted",
      message: `comment ${i}`,
      // Runs of three comments share a millisecond, so pages end inside a run.
      createdAt: new Date(base + (options.sameTime ? 0 : Math.floor(i / 3))),
    })),
  );
  return { workspaceId, account, ids };
}

const inboxIds = async (workspaceId: string) =>
  (await getDb().adCommentItem.findMany({ where: { workspaceId }, orderBy: [{ commentedAt: "asc" }, { externalId: "asc" }] })).map((r) => r.externalId);

describe("the comment pull's cursor", () => {
  beforeAll(() => undefined);

  it("takes at most the cap per poll and resumes inside runs of equal timestamps, missing and repeating nothing", async () => {
    const { workspaceId, account, ids } = await accountWithComments(20);
    const target = { workspaceId, adAccountId: account.id };
    const polls = [];
    for (let i = 0; i < 10; i++) polls.push(await pull.pullAccountComments(target, { limit: 4 }));
    expect(polls.map((p) => p.added)).toEqual([4, 4, 4, 4, 4, 0, 0, 0, 0, 0]);
    expect(polls.map((p) => p.capped)).toEqual([true, true, true, true, true, false, false, false, false, false]);
    expect(await inboxIds(workspaceId)).toEqual(ids);

    const all = await accountWithComments(7, { sameTime: true });
    for (let i = 0; i < 5; i++) await pull.pullAccountComments({ workspaceId: all.workspaceId, adAccountId: all.account.id }, { limit: 2 });
    expect(await inboxIds(all.workspaceId)).toEqual(all.ids);
  });

  it("adds each comment once with several pulls at once, after a lost cursor, and after a restart", async () => {
    const { workspaceId, account, ids } = await accountWithComments(30);
    const target = { workspaceId, adAccountId: account.id };
    await Promise.all([
      pull.pullAccountComments(target, { limit: 7 }),
      pull.pullAccountComments(target, { limit: 7 }),
      pull.pullAccountComments(target, { limit: 11 }),
    ]);
    for (let i = 0; i < 6; i++) await pull.pullAccountComments(target, { limit: 7 });
    expect(await inboxIds(workspaceId)).toEqual(ids);

    // A lost cursor (or a crash between reading and recording) re-reads from the start: nothing twice.
    await getDb().commentPullCursor.deleteMany({ where: { adAccountId: account.id } });
    const again = await pull.pullAccountComments(target);
    expect(again).toMatchObject({ fetched: 30, added: 0 });

    // A new process over the same database carries on from the stored cursor.
    const { createServices, disposeServices } = await import("@/lib/services");
    await disposeServices();
    createServices();
    const after = await (await import("@/lib/moderation/pull")).pullAccountComments(target);
    expect(after).toMatchObject({ fetched: 0, added: 0 });
    expect(await getDb().adCommentItem.count({ where: { workspaceId } })).toBe(30);
  });

  it("on the platform: a reply is the page's comment under its parent, a deleted comment and its replies leave the list; the pull skips the page's replies", async () => {
    const { workspaceId, account, ids } = await accountWithComments(2);
    const api = adapterFor(account);
    const reply = await api.replyToComment(account, ids[0]!, "Thanks for asking", "reply-1");
    expect(reply).toMatchObject({ parentExternalId: ids[0], byPage: true, message: "Thanks for asking", hidden: false });
    // The same clientRef answers the first reply, also from two calls at once: nothing is posted twice.
    const again = await Promise.all([0, 1].map(() => api.replyToComment(account, ids[0]!, "Thanks for asking", "reply-1")));
    expect(again).toEqual([reply, reply]);
    expect(await sandboxReplyCount(account, ids[0]!)).toBe(1);
    // Published with the next simulated hour, like every comment.
    expect((await api.listComments(account, { limit: 10 })).map((c) => c.externalId)).toEqual(ids);
    await advanceSandbox(workspaceId, 1);
    expect((await api.listComments(account, { limit: 10 })).map((c) => c.externalId)).toEqual([...ids, reply.externalId]);
    const summary = await pull.pullAccountComments({ workspaceId, adAccountId: account.id });
    expect(summary).toMatchObject({ fetched: 2, added: 2 });

    await api.deleteComment(account, ids[0]!);
    expect((await api.listComments(account, { limit: 10 })).map((c) => c.externalId)).toEqual([ids[1]]);
    await expect(api.setCommentHidden(account, ids[0]!, true)).rejects.toMatchObject({ code: "invalid_input" });
    await expect(api.replyToComment(account, reply.externalId, "again", "reply-2")).rejects.toMatchObject({ code: "invalid_input" });
    expect((await api.setCommentHidden(account, ids[1]!, true)).hidden).toBe(true);
  });
});
