/**
 * Decisions on one creative arriving at the same moment (a guest double-clicking approve, a teammate and a
 * guest together) take turns: the same decision twice records one change in the history. Runs on PostgreSQL
 * too, where the requests truly run at once.
 */
import { describe, expect, it } from "vitest";
import { createTenant } from "../helpers/fixtures";
import { callTool, readyCreative, toolResult } from "../tools/helpers";
import { guest, reviewLink } from "./helpers";

describe("decisions at the same moment", () => {
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
});
