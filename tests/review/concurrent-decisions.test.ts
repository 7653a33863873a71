/**
 * Review writes arriving at the same moment take turns: the same decision twice (a guest double-clicking
 * approve, a teammate and a guest together) records one change in the history, and a reply racing the
 * deletion of its thread is never left behind without it. Runs on PostgreSQL too, where the requests truly
 * run at once.
 */
import { describe, expect, it } from "vitest";
import { createTenant } from "../helpers/fixtures";
import { callTool, readyCreative, toolResult } from "../tools/helpers";
import { guest, reviewLink } from "./helpers";

describe("review writes at the same moment", () => {
  it("the same decision sent six times at once is recorded once", async () => {
    const t = await createTenant();
    const c = await readyCreative(t.key);
    const link = await reviewLink(t.key, { creativeIds: [c.creativeId], permissions: { decide: true } });
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () =>
        guest(`/api/review/${link.token}/decision`, { method: "POST", json: { creativeId: c.creativeId, name: "Cleo Client", decision: "approved" } }),
      ),
      ...Array.from({ length: 2 }, () => callTool(t.key, "set_review_status", { creativeId: c.creativeId, status: "approved" })),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200]);
    const { history } = await toolResult(t.key, "list_review_history", { creativeId: c.creativeId });
    expect(history.map((h: any) => h.status)).toEqual(["approved"]);
  });

  it("a reply racing the deletion of its thread is refused or deleted with it, never left behind", async () => {
    const t = await createTenant();
    const c = await readyCreative(t.key);
    for (let round = 0; round < 8; round++) {
      const { threadId } = await toolResult(t.key, "add_comment", { creativeId: c.creativeId, body: `Thread ${round}` });
      const [reply, deleted] = await Promise.all([
        callTool(t.key, "reply_to_comment", { commentId: threadId, body: `Reply ${round}` }),
        callTool(t.key, "delete_comment", { commentId: threadId }),
      ]);
      expect(deleted.status).toBe(200);
      expect([200, 404], JSON.stringify(reply.body)).toContain(reply.status);
      expect(deleted.body.result.deleted).toBe(reply.status === 200 ? 2 : 1);
    }
    // Every comment left is in a thread: the count the versions show is what list_comments shows (none).
    const { versions } = await toolResult(t.key, "list_creative_versions", { creativeId: c.creativeId });
    expect(versions.map((v: any) => v.commentCount)).toEqual([0]);
  });
});
