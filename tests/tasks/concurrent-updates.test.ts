/**
 * Updates of one task arriving at the same moment take turns: the same person assigned by two requests at
 * once is assigned once, and neither request fails. Runs on PostgreSQL too, where they truly run at once.
 */
import { describe, expect, it } from "vitest";
import { createMemberKey, createTenant } from "../helpers/fixtures";
import { callTool, toolResult } from "../tools/helpers";

describe("task updates at the same moment", () => {
  it("four requests assigning the same person at once all succeed, and the task has them once", async () => {
    const t = await createTenant();
    const member = await createMemberKey(t, { role: "editor" });
    const { list } = await toolResult(t.key, "create_task_list", { name: "Launch" });
    const { task } = await toolResult(t.key, "create_task", { listId: list.id, title: "Cut the teaser" });
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => callTool(t.key, "update_task", { id: task.id, assigneeIds: [member.userId, t.ownerUserId] })),
    );
    expect(
      answers.map((a) => a.status),
      JSON.stringify(answers.map((a) => a.body.error ?? null)),
    ).toEqual([200, 200, 200, 200]);
    const { task: after } = await toolResult(t.key, "get_task", { id: task.id });
    expect(after.assignees.map((a: any) => a.userId).sort()).toEqual([member.userId, t.ownerUserId].sort());
  });
});
