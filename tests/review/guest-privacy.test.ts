/**
 * What guests see of the team: by default only the threads guests started through their link (with the
 * team's replies); the team's own threads only when the link says so; never an internal user id.
 * The creative's review history names who decided, teammate or guest, and when.
 */
import { describe, expect, it } from "vitest";
import { createTenant } from "../helpers/fixtures";
import { readyCreative, toolResult } from "../tools/helpers";
import { guest, reviewLink } from "./helpers";

const WHO = { name: "Cleo Client", email: "cleo@example.com" };

describe("review links and the team's internal comments", () => {
  it("hide the team's threads unless the link shares them, and expose no internal user ids", async () => {
    const t = await createTenant();
    const c = await readyCreative(t.key);
    const internal = await toolResult(t.key, "add_comment", { creativeId: c.creativeId, body: "Internal: the logo is off-brand" });

    const closed = await reviewLink(t.key, { creativeIds: [c.creativeId], permissions: { comment: true, decide: true } });
    const links = (await toolResult(t.key, "list_review_links", {})).links;
    expect(links.find((l: any) => l.id === closed.id).permissions.internalComments).toBe(false);
    const before = await guest(`/api/review/${closed.token}`);
    expect(before.status).toBe(200);
    expect(before.body.creatives[0].threads).toEqual([]);
    expect(JSON.stringify(before.body)).not.toContain("off-brand");

    // A guest's thread, answered by a teammate: the guest sees both, by name only.
    const posted = await guest(`/api/review/${closed.token}/comments`, {
      method: "POST",
      json: { creativeId: c.creativeId, ...WHO, body: "Can the price be bigger?" },
    });
    expect(posted.status).toBe(201);
    const guestThread = posted.body.creative.threads[0];
    await toolResult(t.key, "reply_to_comment", { commentId: guestThread.id, body: "Yes, in the next version" });
    const after = await guest(`/api/review/${closed.token}`);
    const threads = after.body.creatives[0].threads;
    expect(threads.map((th: any) => th.body)).toEqual(["Can the price be bigger?"]);
    expect(threads[0].replies.map((r: any) => [r.body, r.guest])).toEqual([["Yes, in the next version", false]]);
    const text = JSON.stringify(after.body);
    expect(text).not.toContain(t.ownerUserId);
    expect(text).not.toContain("usr_");
    expect(text).not.toContain("authorUserId");

    // Another link's guests do not see this link's guest thread either.
    const other = await reviewLink(t.key, { creativeIds: [c.creativeId] });
    expect((await guest(`/api/review/${other.token}`)).body.creatives[0].threads).toEqual([]);

    // A link that shares internal comments shows the team's thread, still without ids.
    const open = await reviewLink(t.key, { creativeIds: [c.creativeId], permissions: { internalComments: true } });
    const shared = await guest(`/api/review/${open.token}`);
    expect(shared.body.creatives[0].threads.map((th: any) => th.id)).toEqual([internal.threadId]);
    expect(JSON.stringify(shared.body)).not.toContain("usr_");
    // ...but not the thread another link's guest started (another client's review), nor its answer.
    expect(JSON.stringify(shared.body)).not.toContain("price be bigger");

    // A guest cannot reply into a thread their link does not show: the team's unshared thread, another link's.
    for (const parentId of [internal.threadId, guestThread.id]) {
      const reply = await guest(`/api/review/${other.token}/comments`, {
        method: "POST",
        json: { creativeId: c.creativeId, ...WHO, parentId, body: "Sneaking in" },
      });
      expect([reply.status, reply.body.error?.code]).toEqual([404, "not_found"]);
    }
    const intoShared = await guest(`/api/review/${open.token}/comments`, {
      method: "POST",
      json: { creativeId: c.creativeId, ...WHO, parentId: internal.threadId, body: "Agreed on the logo" },
    });
    expect(intoShared.status).toBe(201);
    const teamView = JSON.stringify((await toolResult(t.key, "list_comments", { creativeId: c.creativeId })).threads);
    expect(teamView).toContain("Agreed on the logo");
    expect(teamView).not.toContain("Sneaking in");
  });

  it("records who decided, a teammate or a named guest, in the history", async () => {
    const t = await createTenant();
    const c = await readyCreative(t.key);
    const link = await reviewLink(t.key, { creativeIds: [c.creativeId], permissions: { decide: true } });
    await toolResult(t.key, "set_review_status", { creativeId: c.creativeId, status: "changes_requested" });
    const decided = await guest(`/api/review/${link.token}/decision`, { method: "POST", json: { creativeId: c.creativeId, ...WHO, decision: "approved" } });
    expect(decided.status).toBe(200);
    const { history } = await toolResult(t.key, "list_review_history", { creativeId: c.creativeId });
    expect(history.map((h: any) => [h.status, h.guest, h.guest ? h.actorName : "teammate"])).toEqual([
      ["approved", true, "Cleo Client"],
      ["changes_requested", false, "teammate"],
    ]);
  });
});
