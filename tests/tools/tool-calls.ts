import { expect } from "vitest";
import http from "node:http";
import { api, createTenant, type Tenant } from "../helpers/fixtures";
import { allCreatives, finishedUpload, uploadIds, waitFor } from "../helpers/library";
import { pngImage } from "../helpers/media-fixtures";
import { callTool, pngBase64, readyCreative, toolResult } from "./helpers";
import { REVIEW_TOOL_CALLS } from "./review-tool-calls";
import { AD_TOOL_CALLS } from "../ads/ad-tool-calls";
import { AUTOMATION_TOOL_CALLS } from "../automation/automation-tool-calls";
import { MODERATION_TOOL_CALLS } from "../moderation/moderation-tool-calls";
import { PERFORMANCE_TOOL_CALLS } from "../performance/performance-tool-calls";
import { LEAD_TOOL_CALLS } from "../leads/lead-tool-calls";
import { TEAM_TOOL_CALLS } from "./team-tool-calls";
import { BOARD_TOOL_CALLS } from "../boards/board-tool-calls";
import { AI_TOOL_CALLS } from "../ai/ai-tool-calls";
import { ACCOUNT_TOOL_CALLS } from "../accounts/account-tool-calls";
import { IMPORT_TOOL_CALLS } from "../import/import-tool-calls";
import { NOTIFICATION_TOOL_CALLS } from "../notifications/notification-tool-calls";

/**
 * One REST scenario per tool of the catalog, each calling it and checking what it did
 * through another way in (REST resource, another tool). tests/tools/catalog-coverage
 * fails when a tool of GET /api/v1/tools has no entry here.
 */
export const TOOL_CALLS: Record<string, (t: Tenant) => Promise<void>> = {
  ...REVIEW_TOOL_CALLS,
  ...AD_TOOL_CALLS,
  ...AUTOMATION_TOOL_CALLS,
  ...MODERATION_TOOL_CALLS,
  ...PERFORMANCE_TOOL_CALLS,
  ...LEAD_TOOL_CALLS,
  ...TEAM_TOOL_CALLS,
  ...BOARD_TOOL_CALLS,
  ...AI_TOOL_CALLS,
  ...ACCOUNT_TOOL_CALLS,
  ...IMPORT_TOOL_CALLS,
  ...NOTIFICATION_TOOL_CALLS,
  async get_account(t) {
    const result = await toolResult(t.key, "get_account", {});
    const me = await api(t.key)("/api/v1/me");
    expect(result).toEqual({ account: me.body.account });
    expect(result.account.id).toBe(t.ownerUserId);
  },

  async list_uploads(t) {
    const first = await readyCreative(t.key);
    const second = await readyCreative(t.key);
    const page1 = await toolResult(t.key, "list_uploads", { limit: 1 });
    expect(page1.uploads.map((u: any) => u.id)).toEqual([second.uploadId]);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const page2 = await toolResult(t.key, "list_uploads", { limit: 1, cursor: page1.nextCursor });
    expect(page2.uploads.map((u: any) => u.id)).toEqual([first.uploadId]);
  },

  async get_upload(t) {
    const { uploadId } = await readyCreative(t.key);
    const { upload } = await toolResult(t.key, "get_upload", { id: uploadId });
    expect(upload).toMatchObject({ id: uploadId, status: "completed", platform: "platform_a" });
    expect(upload.platform_a.imageHash).toMatch(/^[0-9a-f]{32}$/);
    const other = await createTenant();
    expect((await callTool(other.key, "get_upload", { id: uploadId })).body.error.code).toBe("not_found");
  },

  async create_upload(t) {
    const { uploads } = await toolResult(t.key, "create_upload", {
      files: [{ fileName: "from-tool.png", contentBase64: await pngBase64(), contentType: "image/png" }],
      platform: "platform_b",
    });
    expect(uploads).toEqual([{ id: expect.any(String), status: "processing" }]);
    const done = await finishedUpload(t.key, uploads[0].id, 60_000);
    expect(done).toMatchObject({ fileName: "from-tool.png", status: "completed", platform: "platform_b" });
    expect(done.platform_b.imageId).toMatch(/^\d+$/);

    const big = Buffer.alloc(600 * 1024, 1).toString("base64");
    const tooBig = await callTool(t.key, "create_upload", { files: [{ fileName: "big.png", contentBase64: big }] });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error.code).toBe("limit_exceeded");

    const notMedia = await callTool(t.key, "create_upload", { files: [{ fileName: "notes.txt", contentBase64: Buffer.from("hello").toString("base64") }] });
    expect(notMedia.status).toBe(400);
    expect(notMedia.body.error.code).toBe("invalid_input");
    expect(notMedia.body.error.message).toMatch(/^Invalid input:/);
  },

  async retry_upload(t) {
    const [failing] = await uploadIds(t.key, [{ name: "sandbox-fail-once-tool.png", type: "image/png", bytes: await pngImage(8, 8) }]);
    expect((await finishedUpload(t.key, failing!, 90_000)).status).toBe("failed");
    const { upload } = await toolResult(t.key, "retry_upload", { id: failing });
    expect(upload).toEqual({ id: failing, status: "processing" });
    expect((await finishedUpload(t.key, failing!, 90_000)).status).toBe("completed");
    const again = await callTool(t.key, "retry_upload", { id: failing });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe("not_found");
  },

  async dismiss_upload(t) {
    const { uploadId } = await readyCreative(t.key);
    expect(await toolResult(t.key, "dismiss_upload", { id: uploadId })).toEqual({ ok: true });
    expect((await api(t.key)(`/api/v1/uploads/${uploadId}`)).status).toBe(404);
    const slow = (await uploadIds(t.key, [{ name: "sandbox-slow-tool.png", type: "image/png", bytes: await pngImage(8, 8) }]))[0]!;
    const busy = await callTool(t.key, "dismiss_upload", { id: slow });
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe("conflict");
  },

  async list_creatives(t) {
    const { creativeId } = await readyCreative(t.key);
    const { creatives, nextCursor } = await toolResult(t.key, "list_creatives", {});
    expect(creatives.map((c: any) => c.id)).toContain(creativeId);
    expect(nextCursor).toBeNull();
  },

  async get_creative(t) {
    const { creativeId, fileName } = await readyCreative(t.key);
    const { creative } = await toolResult(t.key, "get_creative", { id: creativeId });
    expect(creative).toMatchObject({ id: creativeId, fileName, kind: "image", contentType: "image/png" });
    const other = await createTenant();
    expect((await callTool(other.key, "get_creative", { id: creativeId })).status).toBe(404);
  },

  async delete_creatives(t) {
    const { creativeId } = await readyCreative(t.key);
    expect(await toolResult(t.key, "delete_creatives", { ids: [creativeId, "crt_missing"] })).toEqual({ deleted: 1 });
    expect((await callTool(t.key, "get_creative", { id: creativeId })).status).toBe(404);
    const none = await callTool(t.key, "delete_creatives", { ids: [] });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toMatch(/^Invalid input: ids/);
  },

  async move_creatives(t) {
    const { creativeId } = await readyCreative(t.key);
    const { folder } = await toolResult(t.key, "create_folder", { name: "Moved here" });
    const inFolder = async (folderId: string | null) => (await toolResult(t.key, "list_creatives", { folderId })).creatives.map((c: any) => c.id);
    expect(await toolResult(t.key, "move_creatives", { ids: [creativeId, "crt_missing"], folderId: folder.id })).toEqual({ moved: 1 });
    expect(await inFolder(folder.id)).toEqual([creativeId]);
    expect(await inFolder(null)).not.toContain(creativeId);
    expect(await toolResult(t.key, "move_creatives", { ids: [creativeId], folderId: null })).toEqual({ moved: 1 });
    expect(await inFolder(folder.id)).toEqual([]);
    expect(await inFolder(null)).toContain(creativeId);
    expect((await callTool(t.key, "move_creatives", { ids: [creativeId], folderId: "fld_missing" })).status).toBe(404);
    const foreign = await createTenant();
    expect(await toolResult(foreign.key, "move_creatives", { ids: [creativeId], folderId: null })).toEqual({ moved: 0 });
    expect(await inFolder(null)).toContain(creativeId);
  },

  async list_copy_variants(t) {
    const { creativeId } = await readyCreative(t.key);
    await api(t.key)(`/api/v1/creatives/${creativeId}/copy`, { method: "POST", json: { headline: "From REST" } });
    const { copies } = await toolResult(t.key, "list_copy_variants", { creativeId });
    expect(copies).toEqual([expect.objectContaining({ headline: "From REST", primaryText: null })]);
  },

  async create_copy_variant(t) {
    const { creativeId } = await readyCreative(t.key);
    const { id, created } = await toolResult(t.key, "create_copy_variant", { creativeId, headline: "Hello", label: "A" });
    expect(created).toBe(true);
    const rest = await api(t.key)(`/api/v1/creatives/${creativeId}/copy`);
    expect(rest.body.copies).toEqual([expect.objectContaining({ id, headline: "Hello", label: "A" })]);
    const tooLong = await callTool(t.key, "create_copy_variant", { creativeId, headline: "x".repeat(501) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.message).toMatch(/^Invalid input: headline/);
  },

  async save_copy_variant(t) {
    const { creativeId } = await readyCreative(t.key);
    const created = await toolResult(t.key, "save_copy_variant", { creativeId, headline: "First", label: "keep" });
    expect(created).toEqual({ id: expect.any(String), created: true });
    const { id } = created;
    expect(await toolResult(t.key, "save_copy_variant", { creativeId, id, headline: "Second" })).toEqual({ id, created: false });
    const rest = await api(t.key)(`/api/v1/creatives/${creativeId}/copy`);
    expect(rest.body.copies).toEqual([expect.objectContaining({ id, headline: "Second", label: "keep" })]);
    expect((await callTool(t.key, "save_copy_variant", { creativeId, id: "cpy_missing" })).status).toBe(404);
  },

  async update_copy_variant(t) {
    const { creativeId } = await readyCreative(t.key);
    const { id } = await toolResult(t.key, "create_copy_variant", { creativeId, headline: "Before", label: "keep" });
    expect(await toolResult(t.key, "update_copy_variant", { creativeId, id, headline: "After" })).toEqual({ id, created: false });
    const { copies } = await toolResult(t.key, "list_copy_variants", { creativeId });
    expect(copies).toEqual([expect.objectContaining({ id, headline: "After", label: "keep" })]);
    expect((await callTool(t.key, "update_copy_variant", { creativeId, id: "cpy_missing", headline: "x" })).status).toBe(404);
  },

  async delete_copy_variant(t) {
    const { creativeId } = await readyCreative(t.key);
    const { id } = await toolResult(t.key, "create_copy_variant", { creativeId, headline: "Bye" });
    expect(await toolResult(t.key, "delete_copy_variant", { creativeId, id })).toEqual({ ok: true });
    expect((await toolResult(t.key, "list_copy_variants", { creativeId })).copies).toEqual([]);
  },

  async list_folders(t) {
    const { folder: root } = await toolResult(t.key, "create_folder", { name: "Root" });
    const { folder: child } = await toolResult(t.key, "create_folder", { name: "Child", parentId: root.id });
    expect((await toolResult(t.key, "list_folders", {})).folders.map((f: any) => f.id)).toEqual([child.id, root.id]);
    expect((await toolResult(t.key, "list_folders", { parentId: null })).folders.map((f: any) => f.id)).toEqual([root.id]);
    expect((await toolResult(t.key, "list_folders", { parentId: root.id })).folders.map((f: any) => f.id)).toEqual([child.id]);
  },

  async create_folder(t) {
    const { folder } = await toolResult(t.key, "create_folder", { name: "  Spring  " });
    expect(folder).toEqual({ id: expect.stringMatching(/^fld_/), name: "Spring", parentId: null, createdAt: expect.any(String) });
    // Uploads can be filed into it.
    const [uploadId] = await uploadIds(t.key, [{ name: "in-folder.png", type: "image/png", bytes: await pngImage(8, 8) }], { folderId: folder.id });
    expect(uploadId).toBeTruthy();
    const foreign = await createTenant();
    expect((await callTool(foreign.key, "create_folder", { name: "x", parentId: folder.id })).status).toBe(404);
  },

  async rename_folder(t) {
    const { folder } = await toolResult(t.key, "create_folder", { name: "Old" });
    expect((await toolResult(t.key, "rename_folder", { id: folder.id, name: "New" })).folder).toMatchObject({ id: folder.id, name: "New" });
    expect((await toolResult(t.key, "list_folders", {})).folders[0].name).toBe("New");
    const empty = await callTool(t.key, "rename_folder", { id: folder.id, name: "   " });
    expect(empty.body.error).toMatchObject({ code: "invalid_input", message: expect.stringMatching(/^Invalid input: name/) });
  },

  async delete_folder(t) {
    const { folder } = await toolResult(t.key, "create_folder", { name: "Doomed" });
    await toolResult(t.key, "create_folder", { name: "Sub", parentId: folder.id });
    expect(await toolResult(t.key, "delete_folder", { id: folder.id })).toEqual({ ok: true });
    expect((await toolResult(t.key, "list_folders", {})).folders).toEqual([]);

    const { folder: full } = await toolResult(t.key, "create_folder", { name: "Full" });
    await uploadIds(t.key, [{ name: "kept.png", type: "image/png", bytes: await pngImage(8, 8) }], { folderId: full.id });
    const refused = await callTool(t.key, "delete_folder", { id: full.id });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("conflict");
  },

  async get_webhook(t) {
    expect(await toolResult(t.key, "get_webhook", {})).toEqual({ webhook: null });
    const receiver = await receiverServer();
    try {
      await api(t.key)("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url } });
      const { webhook } = await toolResult(t.key, "get_webhook", {});
      expect(webhook).toMatchObject({ url: receiver.url, secret: expect.stringMatching(/^adlsig_/), events: null });
    } finally {
      await receiver.close();
    }
  },

  async set_naming_convention(t) {
    const set = await toolResult(t.key, "set_naming_convention", { pattern: "{concept}_{aspect}", example: "spring_4x5.png" });
    expect(set.example).toEqual({ fileName: "spring_4x5.png", labels: { concept: "spring", aspect: "4x5" } });
    // What it set is what an upload is parsed by: the new creative carries the labels.
    const [id] = await uploadIds(t.key, [{ name: "spring_4x5.png", type: "image/png", bytes: await pngImage(40, 50) }]);
    expect((await finishedUpload(t.key, id!)).status).toBe("completed");
    const made = await waitFor("the creative", async () => (await allCreatives(t.key)).find((c) => c.fileName === "spring_4x5.png"));
    expect(made.labels).toEqual({ concept: "spring", aspect: "4x5" });
    expect((await callTool(t.key, "set_naming_convention", { pattern: "{concept}{aspect}" })).status).toBe(400); // fields need text between them
    expect((await toolResult(t.key, "set_naming_convention", { pattern: null })).namingConvention.pattern).toBeNull();
  },

  async get_naming_convention(t) {
    expect((await toolResult(t.key, "get_naming_convention", {})).namingConvention).toEqual({ pattern: null, fields: [] });
    await toolResult(t.key, "set_naming_convention", { pattern: "{concept}_{hook}" });
    expect((await toolResult(t.key, "get_naming_convention", {})).namingConvention).toEqual({ pattern: "{concept}_{hook}", fields: ["concept", "hook"] });
  },

  async set_webhook_url(t) {
    const receiver = await receiverServer();
    try {
      const first = await toolResult(t.key, "set_webhook_url", { url: receiver.url });
      expect(first).toMatchObject({ created: true, webhook: { url: receiver.url } });
      const second = await toolResult(t.key, "set_webhook_url", { url: receiver.url + "?v=2" });
      expect(second.created).toBe(false);
      expect(second.webhook.secret).toBe(first.webhook.secret);
      const bad = await callTool(t.key, "set_webhook_url", { url: "ftp://example.com/hook" });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: "invalid_input", message: expect.stringMatching(/^Invalid input:/) });
    } finally {
      await receiver.close();
    }
  },

  async set_webhook_events(t) {
    const missing = await callTool(t.key, "set_webhook_events", { events: ["upload.completed"] });
    expect(missing.status).toBe(404);
    const receiver = await receiverServer();
    try {
      await toolResult(t.key, "set_webhook_url", { url: receiver.url });
      expect((await toolResult(t.key, "set_webhook_events", { events: ["upload.failed"] })).webhook.events).toEqual(["upload.failed"]);
      expect((await toolResult(t.key, "set_webhook_events", { events: null })).webhook.events).toBeNull();
      const unknown = await callTool(t.key, "set_webhook_events", { events: ["upload.exploded"] });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.message).toMatch(/^Invalid input: Unknown event name: "upload.exploded"/);
    } finally {
      await receiver.close();
    }
  },

  async delete_webhook(t) {
    const receiver = await receiverServer();
    try {
      await toolResult(t.key, "set_webhook_url", { url: receiver.url });
      expect(await toolResult(t.key, "delete_webhook", {})).toEqual({ ok: true });
      expect(await toolResult(t.key, "get_webhook", {})).toEqual({ webhook: null });
      expect((await callTool(t.key, "delete_webhook", {})).status).toBe(404);
    } finally {
      await receiver.close();
    }
  },

  async test_webhook(t) {
    const receiver = await receiverServer();
    try {
      await toolResult(t.key, "set_webhook_url", { url: receiver.url });
      const { event } = await toolResult(t.key, "test_webhook", {});
      expect(event).toMatchObject({ id: expect.any(String), type: "test" });
      await waitFor("the test event", async () => receiver.bodies.find((b) => b.id === event.id), 30_000);
    } finally {
      await receiver.close();
    }
  },

  async list_webhook_deliveries(t) {
    const receiver = await receiverServer();
    try {
      await toolResult(t.key, "set_webhook_url", { url: receiver.url });
      const { event } = await toolResult(t.key, "test_webhook", {});
      const { deliveries } = await waitFor("a logged delivery", async () => {
        const r = await toolResult(t.key, "list_webhook_deliveries", { eventId: event.id });
        return r.deliveries.length ? r : undefined;
      });
      expect(deliveries[0]).toMatchObject({ eventId: event.id, eventType: "test", outcome: "succeeded" });
    } finally {
      await receiver.close();
    }
  },

  async redeliver_webhook_delivery(t) {
    const receiver = await receiverServer();
    try {
      await toolResult(t.key, "set_webhook_url", { url: receiver.url });
      const { event } = await toolResult(t.key, "test_webhook", {});
      const logged = await waitFor("a logged delivery", async () => (await toolResult(t.key, "list_webhook_deliveries", { eventId: event.id })).deliveries[0]);
      const { delivery } = await toolResult(t.key, "redeliver_webhook_delivery", { id: logged.id });
      expect(delivery).toMatchObject({ eventId: event.id, trigger: "redelivery" });
      await waitFor("two copies of the event", async () => receiver.bodies.filter((b) => b.id === event.id).length >= 2);
      expect((await callTool(t.key, "redeliver_webhook_delivery", { id: "whd_missing" })).status).toBe(404);
    } finally {
      await receiver.close();
    }
  },

  async list_task_lists(t) {
    const { list } = await toolResult(t.key, "create_task_list", { name: "Launch" });
    await toolResult(t.key, "create_task", { listId: list.id, title: "Brief" });
    const { lists } = await toolResult(t.key, "list_task_lists", {});
    expect(lists).toEqual([expect.objectContaining({ id: list.id, name: "Launch", taskCount: 1 })]);
  },

  async create_task_list(t) {
    const { list } = await toolResult(t.key, "create_task_list", { name: "  Spring  " });
    expect(list).toMatchObject({ name: "Spring", taskCount: 0 });
    expect((await callTool(t.key, "create_task_list", { name: "" })).body.error.code).toBe("invalid_input");
  },

  async rename_task_list(t) {
    const { list } = await toolResult(t.key, "create_task_list", { name: "Old" });
    expect((await toolResult(t.key, "rename_task_list", { id: list.id, name: "New" })).list.name).toBe("New");
    const other = await createTenant();
    expect((await callTool(other.key, "rename_task_list", { id: list.id, name: "Theirs" })).status).toBe(404);
  },

  async delete_task_list(t) {
    const { list } = await toolResult(t.key, "create_task_list", { name: "Temp" });
    const { task } = await toolResult(t.key, "create_task", { listId: list.id, title: "Keep me" });
    expect((await callTool(t.key, "delete_task_list", { id: list.id })).status).toBe(409);
    await toolResult(t.key, "delete_task", { id: task.id });
    expect(await toolResult(t.key, "delete_task_list", { id: list.id })).toEqual({ ok: true });
    expect((await toolResult(t.key, "list_task_lists", {})).lists).toEqual([]);
  },

  async list_tasks(t) {
    const { list } = await toolResult(t.key, "create_task_list", { name: "L" });
    const a = (await toolResult(t.key, "create_task", { listId: list.id, title: "A", dueDate: "2030-01-10", assigneeIds: [t.ownerUserId] })).task;
    const b = (await toolResult(t.key, "create_task", { listId: list.id, title: "B", dueDate: "2030-02-10", status: "done" })).task;
    const ids = async (args: object) => (await toolResult(t.key, "list_tasks", args)).tasks.map((x: any) => x.id);
    expect(await ids({})).toEqual([b.id, a.id]);
    expect(await ids({ mine: true })).toEqual([a.id]);
    expect(await ids({ status: ["done"] })).toEqual([b.id]);
    expect(await ids({ dueFrom: "2030-02-01" })).toEqual([b.id]);
    expect(await ids({ dueTo: "2030-01-31", assigneeId: t.ownerUserId })).toEqual([a.id]);
    const page = await toolResult(t.key, "list_tasks", { limit: 1 });
    expect((await toolResult(t.key, "list_tasks", { limit: 1, cursor: page.nextCursor })).tasks.map((x: any) => x.id)).toEqual([a.id]);
  },

  async get_task(t) {
    const { list } = await toolResult(t.key, "create_task_list", { name: "L" });
    const { task } = await toolResult(t.key, "create_task", { listId: list.id, title: "Look" });
    expect((await toolResult(t.key, "get_task", { id: task.id })).task).toEqual(task);
    expect(task.url).toMatch(new RegExp(`/dashboard/tasks\\?task=${task.id}$`));
    expect((await callTool((await createTenant()).key, "get_task", { id: task.id })).status).toBe(404);
  },

  async create_task(t) {
    const { creativeId } = await readyCreative(t.key);
    const { list } = await toolResult(t.key, "create_task_list", { name: "L" });
    const { task } = await toolResult(t.key, "create_task", {
      listId: list.id,
      title: "Resize",
      description: "For stories",
      dueDate: "2030-05-01",
      assigneeIds: [t.ownerUserId],
      links: [{ kind: "creative", id: creativeId }],
    });
    expect(task).toMatchObject({ title: "Resize", status: "todo", dueDate: "2030-05-01", links: [{ kind: "creative", id: creativeId }] });
    expect(task.assignees).toEqual([expect.objectContaining({ userId: t.ownerUserId })]);
    const stranger = await callTool(t.key, "create_task", { listId: list.id, title: "X", assigneeIds: ["usr_nobody"] });
    expect(stranger.body.error.message).toMatch(/^Invalid input: assigneeIds: not members of this workspace: usr_nobody/);
    expect((await callTool(t.key, "create_task", { listId: list.id, title: "X", dueDate: "2030-02-30" })).body.error.code).toBe("invalid_input");
  },

  async update_task(t) {
    const { list } = await toolResult(t.key, "create_task_list", { name: "L" });
    const { list: other } = await toolResult(t.key, "create_task_list", { name: "M" });
    const { task } = await toolResult(t.key, "create_task", { listId: list.id, title: "T", description: "keep", dueDate: "2030-01-01" });
    const { task: updated } = await toolResult(t.key, "update_task", {
      id: task.id,
      status: "in_progress",
      dueDate: null,
      listId: other.id,
      assigneeIds: [t.ownerUserId],
    });
    expect(updated).toMatchObject({ status: "in_progress", dueDate: null, listId: other.id, description: "keep" });
    expect(updated.assignees.map((a: any) => a.userId)).toEqual([t.ownerUserId]);
    expect((await toolResult(t.key, "update_task", { id: task.id, assigneeIds: [] })).task.assignees).toEqual([]);
  },

  async delete_task(t) {
    const { list } = await toolResult(t.key, "create_task_list", { name: "L" });
    const { task } = await toolResult(t.key, "create_task", { listId: list.id, title: "Gone" });
    await toolResult(t.key, "add_task_comment", { taskId: task.id, body: "bye" });
    expect(await toolResult(t.key, "delete_task", { id: task.id })).toEqual({ ok: true });
    expect((await callTool(t.key, "get_task", { id: task.id })).status).toBe(404);
    expect((await callTool(t.key, "delete_task", { id: task.id })).status).toBe(404);
  },

  async list_task_comments(t) {
    const { list } = await toolResult(t.key, "create_task_list", { name: "L" });
    const { task } = await toolResult(t.key, "create_task", { listId: list.id, title: "Talk" });
    await toolResult(t.key, "add_task_comment", { taskId: task.id, body: "first" });
    await toolResult(t.key, "add_task_comment", { taskId: task.id, body: "second" });
    const { comments } = await toolResult(t.key, "list_task_comments", { taskId: task.id });
    expect(comments.map((c: any) => c.body)).toEqual(["second", "first"]);
    expect((await toolResult(t.key, "get_task", { id: task.id })).task.commentCount).toBe(2);
  },

  async add_task_comment(t) {
    const { list } = await toolResult(t.key, "create_task_list", { name: "L" });
    const { task } = await toolResult(t.key, "create_task", { listId: list.id, title: "Talk" });
    const { comment } = await toolResult(t.key, "add_task_comment", { taskId: task.id, body: "Looks good" });
    expect(comment).toMatchObject({ taskId: task.id, body: "Looks good", author: { userId: t.ownerUserId } });
    expect((await callTool(t.key, "add_task_comment", { taskId: task.id, body: "   " })).body.error.code).toBe("invalid_input");
  },
};

/** A local endpoint recording every JSON body it receives (the test server allows private URLs). */
export async function receiverServer(): Promise<{ url: string; bodies: any[]; close(): Promise<void> }> {
  const bodies: any[] = [];
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      try {
        bodies.push(JSON.parse(raw));
      } catch {
        /* ignore */
      }
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/hook`, bodies, close: () => new Promise((r) => server.close(() => r())) };
}
