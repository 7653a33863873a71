import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemberKey, createTenant, type Tenant } from "../helpers/fixtures";
import { pausedAd } from "../ads/helpers";
import { callTool, toolResult } from "../tools/helpers";
import { startReceiver, type Receiver } from "../webhooks/helpers/receiver";

let tenant: Tenant;
let receiver: Receiver;

beforeAll(async () => {
  tenant = await createTenant();
  receiver = await startReceiver();
  await toolResult(tenant.key, "set_webhook_url", { url: receiver.url });
});
afterAll(() => receiver.close());

const eventsOf = async (type: string, n = 1) =>
  (await receiver.waitFor(n, { filter: (r) => JSON.parse(r.body).type === type, timeoutMs: 20_000 })).map((r) => JSON.parse(r.body));

describe("tasks", () => {
  it("sends task.assigned to the newly assigned only, with the list, a dashboard link and who assigned", async () => {
    const editor = await createMemberKey(tenant, { role: "editor" });
    const second = await createMemberKey(tenant, { role: "editor" });
    const { list } = await toolResult(tenant.key, "create_task_list", { name: "Spring launch" });
    const { task } = await toolResult(tenant.key, "create_task", {
      listId: list.id,
      title: "Cut the 15 s edit",
      dueDate: "2030-03-01",
      assigneeIds: [editor.userId],
    });
    const [first] = await eventsOf("task.assigned");
    expect(first.data).toEqual({
      task: { taskId: task.id, title: "Cut the 15 s edit", url: task.url, dueDate: "2030-03-01" },
      list: { listId: list.id, name: "Spring launch" },
      assignees: [{ userId: editor.userId, name: expect.any(String), email: expect.stringContaining("@") }],
      assignedBy: { userId: tenant.ownerUserId, name: expect.any(String) },
    });
    expect(first.data.task.url).toMatch(/^http:\/\/.+\/dashboard\/tasks\?task=/);

    // Adding a second person sends one event naming only them; keeping the first sends nothing for them.
    await toolResult(tenant.key, "update_task", { id: task.id, assigneeIds: [editor.userId, second.userId] });
    const events = await eventsOf("task.assigned", 2);
    expect(events[1].data.assignees.map((a: any) => a.userId)).toEqual([second.userId]);
    await toolResult(tenant.key, "update_task", { id: task.id, title: "Cut the 6 s edit" });
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.requests.filter((r) => JSON.parse(r.body).type === "task.assigned")).toHaveLength(2);
  });

  it("sends task.comment with the task, the comment and its author", async () => {
    const editor = await createMemberKey(tenant, { role: "editor" });
    const { list } = await toolResult(tenant.key, "create_task_list", { name: "Reviews" });
    const { task } = await toolResult(tenant.key, "create_task", { listId: list.id, title: "Check copy" });
    const { comment } = await toolResult(editor.key, "add_task_comment", { taskId: task.id, body: "Headline is too long" });
    const [event] = await eventsOf("task.comment");
    expect(event.data).toEqual({
      task: { taskId: task.id, title: "Check copy", url: task.url },
      comment: { commentId: comment.id, body: "Headline is too long", createdAt: comment.createdAt },
      author: { userId: editor.userId, name: expect.any(String) },
    });
  });

  it("lets viewers read but not write, needs the edit scope to write, and hides other workspaces' tasks", async () => {
    const { list } = await toolResult(tenant.key, "create_task_list", { name: "Perms" });
    const { task } = await toolResult(tenant.key, "create_task", { listId: list.id, title: "Secret" });
    const viewer = await createMemberKey(tenant, { role: "viewer" });
    expect((await callTool(viewer.key, "get_task", { id: task.id })).status).toBe(200);
    const refused = await callTool(viewer.key, "update_task", { id: task.id, title: "Mine now" });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("forbidden");

    const uploadOnly = await createMemberKey(tenant, { role: "editor", scopes: ["upload"] });
    expect((await callTool(uploadOnly.key, "list_tasks", {})).status).toBe(200);
    expect((await callTool(uploadOnly.key, "add_task_comment", { taskId: task.id, body: "hi" })).status).toBe(403);
    const withEdit = await createMemberKey(tenant, { role: "editor", scopes: ["edit"] });
    expect((await callTool(withEdit.key, "add_task_comment", { taskId: task.id, body: "hi" })).status).toBe(200);

    const stranger = await createTenant();
    for (const [name, args] of [
      ["get_task", { id: task.id }],
      ["update_task", { id: task.id, title: "x" }],
      ["delete_task", { id: task.id }],
      ["list_task_comments", { taskId: task.id }],
      ["add_task_comment", { taskId: task.id, body: "x" }],
      ["create_task", { listId: list.id, title: "x" }],
      ["delete_task_list", { id: list.id }],
    ] as const) {
      expect((await callTool(stranger.key, name, args)).status, name).toBe(404);
    }
    expect((await toolResult(stranger.key, "list_tasks", {})).tasks).toEqual([]);
    // The stranger cannot be assigned either.
    const bad = await callTool(tenant.key, "update_task", { id: task.id, assigneeIds: [stranger.ownerUserId] });
    expect(bad.status).toBe(400);
  });

  it("assigns only people whose role can complete the task: a viewer is refused with the envelope, naming them", async () => {
    const viewer = await createMemberKey(tenant, { role: "viewer" });
    const editor = await createMemberKey(tenant, { role: "editor" });
    const { list } = await toolResult(tenant.key, "create_task_list", { name: "Roles" });
    const refused = await callTool(tenant.key, "create_task", { listId: list.id, title: "Approve", assigneeIds: [editor.userId, viewer.userId] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({ code: "invalid_input", message: expect.stringContaining(viewer.userId) });
    expect(refused.body.error.message).not.toContain(editor.userId);
    expect((await toolResult(tenant.key, "list_tasks", { listId: list.id })).tasks).toEqual([]);

    const { task } = await toolResult(tenant.key, "create_task", { listId: list.id, title: "Approve", assigneeIds: [editor.userId] });
    const added = await callTool(tenant.key, "update_task", { id: task.id, assigneeIds: [editor.userId, viewer.userId] });
    expect(added.status).toBe(400);
    expect(added.body.error.code).toBe("invalid_input");
    expect((await toolResult(tenant.key, "get_task", { id: task.id })).task.assignees.map((a: any) => a.userId)).toEqual([editor.userId]);
  });

  it("someone who left is taken off the workspace's tasks; one demoted to viewer stays without blocking changes to the others", async () => {
    const [leaver, demoted, newcomer] = [
      await createMemberKey(tenant, { role: "editor" }),
      await createMemberKey(tenant, { role: "editor" }),
      await createMemberKey(tenant, { role: "editor" }),
    ];
    const { list } = await toolResult(tenant.key, "create_task_list", { name: "Leavers" });
    const { task } = await toolResult(tenant.key, "create_task", { listId: list.id, title: "Hand over", assigneeIds: [leaver.userId, demoted.userId] });
    await toolResult(tenant.key, "remove_member", { userId: leaver.userId });
    await toolResult(tenant.key, "update_member", { userId: demoted.userId, role: "viewer", folderIds: [] });
    const assignees = async () => (await toolResult(tenant.key, "get_task", { id: task.id })).task.assignees.map((a: any) => a.userId);
    expect(await assignees()).toEqual([demoted.userId]);

    // The dashboard sends the whole set: adding someone while the viewer is still on the task is accepted.
    await toolResult(tenant.key, "update_task", { id: task.id, assigneeIds: [demoted.userId, newcomer.userId] });
    expect(await assignees()).toEqual([demoted.userId, newcomer.userId]);
    // Taken off, the viewer cannot be put back; nor can the one who left.
    await toolResult(tenant.key, "update_task", { id: task.id, assigneeIds: [newcomer.userId] });
    for (const [back, named] of [
      [demoted.userId, "their role cannot complete tasks"],
      [leaver.userId, "not members of this workspace"],
    ] as const) {
      const refused = await callTool(tenant.key, "update_task", { id: task.id, assigneeIds: [newcomer.userId, back] });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toContain(named);
    }
    expect(await assignees()).toEqual([newcomer.userId]);
  });

  it("checks ad links like creative links: an unknown ad or another workspace's is refused, the workspace's own is kept", async () => {
    const { ad } = await pausedAd(tenant.key);
    const stranger = await createTenant();
    const { ad: strangersAd, creativeId: strangersCreative } = await pausedAd(stranger.key);
    const { list } = await toolResult(tenant.key, "create_task_list", { name: "Links" });
    for (const [links, named] of [
      [[{ kind: "ad", id: "ad_does_not_exist" }], "ad_does_not_exist"],
      [[{ kind: "ad", id: strangersAd.id }], strangersAd.id],
      [[{ kind: "creative", id: strangersCreative }], strangersCreative],
      [[{ kind: "ad", id: ad.externalId }], ad.externalId],
    ] as const) {
      const res = await callTool(tenant.key, "create_task", { listId: list.id, title: "Check", links });
      expect(res.status, named).toBe(400);
      expect(res.body.error, named).toEqual({ code: "invalid_input", message: `Invalid input: links: no ${links[0].kind} ${named}` });
    }
    expect((await toolResult(tenant.key, "list_tasks", { listId: list.id })).tasks).toEqual([]);

    const { task } = await toolResult(tenant.key, "create_task", { listId: list.id, title: "Check the ad", links: [{ kind: "ad", id: ad.id }] });
    expect(task.links).toEqual([{ kind: "ad", id: ad.id }]);
    const moved = await callTool(tenant.key, "update_task", { id: task.id, links: [{ kind: "ad", id: strangersAd.id }] });
    expect(moved.status).toBe(400);
    expect((await toolResult(tenant.key, "get_task", { id: task.id })).task.links).toEqual([{ kind: "ad", id: ad.id }]);
  }, 120_000);
});
