import { expect } from "vitest";
import { api, createMemberKey, createTenant, type Tenant } from "../helpers/fixtures";
import { finishedUpload, uploadIds } from "../helpers/library";
import { pngImage } from "../helpers/media-fixtures";
import { callTool, pngBase64, readyCreative, toolResult } from "./helpers";

/** The review tools' scenarios (spread into TOOL_CALLS), each checking its effect through another tool or REST. */
export const REVIEW_TOOL_CALLS: Record<string, (t: Tenant) => Promise<void>> = {
  async get_review_status(t) {
    const { creativeId, fileName } = await readyCreative(t.key);
    const { review } = await toolResult(t.key, "get_review_status", { creativeId });
    expect(review).toEqual({ creativeId, fileName, status: "none", currentVersion: 1, requestedReviewers: [], updatedAt: null });
    const other = await createTenant();
    expect((await callTool(other.key, "get_review_status", { creativeId })).status).toBe(404);
  },

  async set_review_status(t) {
    const { creativeId } = await readyCreative(t.key);
    const first = await toolResult(t.key, "set_review_status", { creativeId, status: "approved", note: "Looks great" });
    expect(first).toMatchObject({ changed: true, review: { status: "approved" } });
    expect(await toolResult(t.key, "set_review_status", { creativeId, status: "approved" })).toMatchObject({ changed: false });
    expect((await toolResult(t.key, "get_review_status", { creativeId })).review.status).toBe("approved");
    const bad = await callTool(t.key, "set_review_status", { creativeId, status: "none" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_input");
  },

  async list_review_history(t) {
    const { creativeId } = await readyCreative(t.key);
    await toolResult(t.key, "set_review_status", { creativeId, status: "changes_requested" });
    await toolResult(t.key, "set_review_status", { creativeId, status: "approved" });
    const page = await toolResult(t.key, "list_review_history", { creativeId, limit: 1 });
    expect(page.history).toEqual([expect.objectContaining({ status: "approved", actorUserId: t.ownerUserId, guest: false })]);
    const rest = await toolResult(t.key, "list_review_history", { creativeId, cursor: page.nextCursor });
    expect(rest.history.map((h: any) => h.status)).toEqual(["changes_requested"]);
  },

  async request_review(t) {
    const { creativeId } = await readyCreative(t.key);
    const editor = await createMemberKey(t, { role: "editor" });
    const { review } = await toolResult(t.key, "request_review", { creativeId, reviewerIds: [editor.userId] });
    expect(review.status).toBe("in_review");
    expect(review.requestedReviewers).toEqual([{ userId: editor.userId, name: expect.any(String) }]);
    const viewer = await createMemberKey(t, { role: "viewer" });
    const refused = await callTool(t.key, "request_review", { creativeId, reviewerIds: [viewer.userId] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/cannot approve/);
    const stranger = (await createTenant()).ownerUserId;
    expect((await callTool(t.key, "request_review", { creativeId, reviewerIds: [stranger] })).body.error.message).toMatch(/not members/);
  },

  async list_comments(t) {
    const { creativeId } = await readyCreative(t.key);
    const { threadId } = await toolResult(t.key, "add_comment", { creativeId, body: "Logo is too small", pin: { x: 0.25, y: 0.5 } });
    await toolResult(t.key, "reply_to_comment", { commentId: threadId, body: "Fixed in v2" });
    const { versionNumber, threads } = await toolResult(t.key, "list_comments", { creativeId });
    expect(versionNumber).toBe(1);
    expect(threads).toEqual([
      expect.objectContaining({
        id: threadId,
        body: "Logo is too small",
        pin: { x: 0.25, y: 0.5 },
        timeSeconds: null,
        resolved: false,
        replies: [expect.objectContaining({ body: "Fixed in v2" })],
      }),
    ]);
    expect((await toolResult(t.key, "list_comments", { creativeId, version: 2 })).threads).toEqual([]);
  },

  async add_comment(t) {
    const { creativeId } = await readyCreative(t.key);
    const { comment } = await toolResult(t.key, "add_comment", { creativeId, body: "  Brighter please  " });
    expect(comment).toMatchObject({ body: "Brighter please", authorUserId: t.ownerUserId, guest: false });
    const onImage = await callTool(t.key, "add_comment", { creativeId, body: "at 2 s", timeSeconds: 2 });
    expect(onImage.status).toBe(400);
    expect(onImage.body.error.message).toMatch(/time codes are for video/);
    const offImage = await callTool(t.key, "add_comment", { creativeId, body: "x", pin: { x: 1.5, y: 0 } });
    expect(offImage.status).toBe(400);
  },

  async reply_to_comment(t) {
    const { creativeId } = await readyCreative(t.key);
    const { threadId } = await toolResult(t.key, "add_comment", { creativeId, body: "Thread" });
    const first = await toolResult(t.key, "reply_to_comment", { commentId: threadId, body: "One" });
    const second = await toolResult(t.key, "reply_to_comment", { commentId: first.comment.id, body: "Two" });
    expect(second.threadId).toBe(threadId);
    const { threads } = await toolResult(t.key, "list_comments", { creativeId });
    expect(threads[0].replies.map((r: any) => r.body)).toEqual(["One", "Two"]);
    expect((await callTool(t.key, "reply_to_comment", { commentId: "cmt_missing", body: "x" })).status).toBe(404);
  },

  async edit_comment(t) {
    const { creativeId } = await readyCreative(t.key);
    const { threadId } = await toolResult(t.key, "add_comment", { creativeId, body: "Typo" });
    const { comment } = await toolResult(t.key, "edit_comment", { commentId: threadId, body: "Fixed" });
    expect(comment).toMatchObject({ body: "Fixed", editedAt: expect.any(String) });
    const editor = await createMemberKey(t, { role: "editor" });
    const notAuthor = await callTool(editor.key, "edit_comment", { commentId: threadId, body: "Hijack" });
    expect(notAuthor.status).toBe(403);
    expect((await toolResult(t.key, "list_comments", { creativeId })).threads[0].body).toBe("Fixed");
  },

  async delete_comment(t) {
    const { creativeId } = await readyCreative(t.key);
    const { threadId } = await toolResult(t.key, "add_comment", { creativeId, body: "Gone soon" });
    await toolResult(t.key, "reply_to_comment", { commentId: threadId, body: "Reply" });
    const editor = await createMemberKey(t, { role: "editor" });
    expect((await callTool(editor.key, "delete_comment", { commentId: threadId })).status).toBe(403);
    expect(await toolResult(t.key, "delete_comment", { commentId: threadId })).toEqual({ deleted: 2 });
    expect((await toolResult(t.key, "list_comments", { creativeId })).threads).toEqual([]);
  },

  async resolve_comment(t) {
    const { creativeId } = await readyCreative(t.key);
    const { threadId } = await toolResult(t.key, "add_comment", { creativeId, body: "Crop it" });
    const { thread } = await toolResult(t.key, "resolve_comment", { commentId: threadId });
    expect(thread).toMatchObject({ id: threadId, resolved: true, resolvedAt: expect.any(String) });
    expect((await toolResult(t.key, "list_comments", { creativeId })).threads[0].resolved).toBe(true);
  },

  async reopen_comment(t) {
    const { creativeId } = await readyCreative(t.key);
    const { threadId } = await toolResult(t.key, "add_comment", { creativeId, body: "Crop it" });
    await toolResult(t.key, "resolve_comment", { commentId: threadId });
    const { thread } = await toolResult(t.key, "reopen_comment", { commentId: threadId });
    expect(thread).toMatchObject({ resolved: false, resolvedAt: null });
  },

  async list_creative_versions(t) {
    const { creativeId, fileName } = await readyCreative(t.key);
    const { versions, currentVersion } = await toolResult(t.key, "list_creative_versions", { creativeId });
    expect(currentVersion).toBe(1);
    expect(versions).toEqual([expect.objectContaining({ number: 1, fileName, current: true, mediaPath: `/api/media/${creativeId}/versions/1` })]);
    const media = await fetch(`${(await import("vitest")).inject("baseUrl")}${versions[0].mediaPath}`, { headers: { Authorization: `Bearer ${t.key}` } });
    expect(media.status).toBe(200);
    expect(media.headers.get("content-type")).toBe("image/png");
  },

  async add_creative_version(t) {
    const { creativeId } = await readyCreative(t.key);
    await toolResult(t.key, "add_comment", { creativeId, body: "On v1" });
    const fromBytes = await toolResult(t.key, "add_creative_version", { creativeId, file: { fileName: "v2.png", contentBase64: await pngBase64(40, 20) } });
    expect(fromBytes).toMatchObject({ currentVersion: 2, version: { number: 2, fileName: "v2.png", width: 40, height: 20, current: true } });
    const [uploadId] = await uploadIds(t.key, [{ name: "v3.png", type: "image/png", bytes: await pngImage(30, 30) }]);
    expect((await finishedUpload(t.key, uploadId!, 60_000)).status).toBe("completed");
    const fromUpload = await toolResult(t.key, "add_creative_version", { creativeId, uploadId });
    expect(fromUpload.version).toMatchObject({ number: 3, fileName: "v3.png", width: 30 });
    const { creative } = await toolResult(t.key, "get_creative", { id: creativeId });
    expect(creative).toMatchObject({ width: 30, height: 30, mediaPath: `/api/media/${creativeId}` });
    const { versions } = await toolResult(t.key, "list_creative_versions", { creativeId });
    expect(versions.map((v: any) => [v.number, v.commentCount, v.current])).toEqual([
      [1, 1, false],
      [2, 0, false],
      [3, 0, true],
    ]);
    expect((await toolResult(t.key, "list_comments", { creativeId })).threads).toEqual([]);
    expect((await toolResult(t.key, "list_comments", { creativeId, version: 1 })).threads).toHaveLength(1);
    const wrong = await callTool(t.key, "add_creative_version", {
      creativeId,
      file: { fileName: "x.txt", contentBase64: Buffer.from("hello").toString("base64") },
    });
    expect(wrong.status).toBe(400);
    expect((await callTool(t.key, "add_creative_version", { creativeId })).status).toBe(400);
  },

  async create_review_link(t) {
    const { creativeId } = await readyCreative(t.key);
    const { link, token, url } = await toolResult(t.key, "create_review_link", {
      name: "Spring batch",
      creativeIds: [creativeId],
      permissions: { decide: true },
    });
    expect(token).toMatch(/^rvl_[A-Za-z0-9_-]{43}$/);
    expect(url).toMatch(new RegExp(`/review/${token}$`));
    expect(link).toMatchObject({
      name: "Spring batch",
      state: "active",
      creativeIds: [creativeId],
      permissions: { comment: true, decide: true, download: false },
      passwordProtected: false,
    });
    const guest = await api(null)(`/api/review/${token}`);
    expect(guest.status).toBe(200);
    expect(guest.body.creatives.map((c: any) => c.id)).toEqual([creativeId]);
    const other = await createTenant();
    expect((await callTool(other.key, "create_review_link", { name: "x", creativeIds: [creativeId] })).status).toBe(404);
  },

  async list_review_links(t) {
    const { creativeId } = await readyCreative(t.key);
    const { link } = await toolResult(t.key, "create_review_link", { name: "Listed", creativeIds: [creativeId] });
    const { links } = await toolResult(t.key, "list_review_links", {});
    expect(links).toEqual([expect.objectContaining({ id: link.id, name: "Listed", state: "active" })]);
    expect(JSON.stringify(links)).not.toMatch(/rvl_[A-Za-z0-9_-]{43}/);
  },

  async get_review_link_url(t) {
    const { creativeId } = await readyCreative(t.key);
    const { link, url } = await toolResult(t.key, "create_review_link", { name: "Again", creativeIds: [creativeId] });
    expect(await toolResult(t.key, "get_review_link_url", { id: link.id })).toEqual({ url });
    const other = await createTenant();
    expect((await callTool(other.key, "get_review_link_url", { id: link.id })).status).toBe(404);
  },

  async revoke_review_link(t) {
    const { creativeId } = await readyCreative(t.key);
    const { link, token } = await toolResult(t.key, "create_review_link", { name: "Short-lived", creativeIds: [creativeId] });
    expect((await api(null)(`/api/review/${token}`)).status).toBe(200);
    expect((await toolResult(t.key, "revoke_review_link", { id: link.id })).link.state).toBe("revoked");
    expect((await api(null)(`/api/review/${token}`)).status).toBe(404);
    const other = await createTenant();
    expect((await callTool(other.key, "revoke_review_link", { id: link.id })).status).toBe(404);
  },
};
