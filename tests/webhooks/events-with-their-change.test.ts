/**
 * Events stored in the transaction of the change they report, driven in-process against a real database:
 * while the database refuses every new event (a trigger on webhook_events), each change below fails whole
 * and leaves nothing of itself behind, where an emit after the commit would have kept the change and lost
 * its event (as a process killed between the two would). Once events are accepted again, the same calls
 * store the change and its event together. Tools that write several rows (request_review, share_board) are
 * called through callTool, the one way in of every surface, with the database refusing their last write.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disposeServices } from "@/lib/services";
import { useFreshDatabase } from "../helpers/in-process-db";

let db: ReturnType<typeof import("@/lib/db/client").getDb>;
let workspaceId: string;
let ownerUserId: string;
let owner: import("@/lib/auth/principal").Principal;

beforeAll(async () => {
  await useFreshDatabase("events_with_change");
  db = (await import("@/lib/db/client")).getDb();
  const { createWorkspace } = await import("@/lib/workspaces/workspaces");
  ({ workspaceId, ownerUserId } = await createWorkspace({ name: "Atomic events", plan: "pro" }));
  owner = (await (await import("@/lib/session/principal")).principalForUser(ownerUserId, workspaceId))!;
  await db.$executeRawUnsafe(
    `CREATE FUNCTION refuse_events() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'events refused for this test'; END $$`,
  );
});
afterAll(disposeServices);

/** Runs `work` while the database refuses every new row of `table` (webhook_events unless told), expecting it to fail. */
async function refusingEvents<T>(work: () => Promise<T>, table = "webhook_events"): Promise<void> {
  await db.$executeRawUnsafe(`CREATE TRIGGER refuse_events BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION refuse_events()`);
  try {
    await expect(work()).rejects.toThrow(/events refused for this test/);
  } finally {
    await db.$executeRawUnsafe(`DROP TRIGGER refuse_events ON ${table}`);
  }
}

const eventsOf = (type: string) => db.webhookEvent.findMany({ where: { workspaceId, type } });

let n = 0;
function creative() {
  const id = `crv_atomic${++n}`;
  return db.creative.create({
    data: { id, workspaceId, fileName: `a${n}.png`, kind: "image", contentType: "image/png", sizeBytes: 10, storageKey: `k/${id}`, status: "ready" },
  });
}
const member = { kind: "member" as const, userId: "usr_reviewer", name: "Rita Reviewer", email: "rita@example.com" };

describe("an event and the change it reports commit together", () => {
  it("review.status_changed: a refused event leaves the status and its history as they were", async () => {
    const { applyReviewStatus } = await import("@/lib/review/status");
    const c = await creative();
    await refusingEvents(() => applyReviewStatus(c, "approved", member));
    expect(await db.creativeReview.findUnique({ where: { creativeId: c.id } })).toBeNull();
    expect(await db.reviewStatusChange.count({ where: { creativeId: c.id } })).toBe(0);

    expect(await applyReviewStatus(c, "approved", member)).toEqual({ changed: true });
    expect((await db.creativeReview.findUniqueOrThrow({ where: { creativeId: c.id } })).status).toBe("approved");
    const [event] = (await eventsOf("review.status_changed")).filter((e) => JSON.parse(e.body).data.review.creativeId === c.id);
    expect(JSON.parse(event!.body).data.review).toEqual({ creativeId: c.id, fileName: c.fileName, actorName: "Rita Reviewer", status: "approved" });
  });

  it("upload.failed: a refused event leaves the upload processing, for the job step's retry", async () => {
    const { failUpload } = await import("@/lib/upload-job/finish-upload");
    const upload = await db.upload.create({
      data: {
        id: "upl_atomic",
        workspaceId,
        createdById: ownerUserId,
        fileName: "refused.png",
        kind: "image",
        contentType: "image/png",
        sizeBytes: 10,
        storageKey: "k/upl_atomic",
        platform: "platform_a",
        jobRun: 1,
      },
    });
    await refusingEvents(() => failUpload({ uploadId: upload.id, jobRun: 1, error: "refused by the platform" }));
    expect(await db.upload.findUniqueOrThrow({ where: { id: upload.id } })).toMatchObject({ status: "processing", error: null });

    await failUpload({ uploadId: upload.id, jobRun: 1, error: "refused by the platform" });
    expect((await eventsOf("upload.failed")).map((e) => e.dedupeKey)).toEqual([`upload.failed:${upload.id}:1`]);
  });

  it("review.comment: a refused event leaves no comment", async () => {
    const { writeComment } = await import("@/lib/review/comments");
    const c = await creative();
    await refusingEvents(() => writeComment(c, member, { body: "Brighter, please" }));
    expect(await db.reviewComment.count({ where: { creativeId: c.id } })).toBe(0);

    const { comment } = await writeComment(c, member, { body: "Brighter, please" });
    expect(await db.reviewComment.count({ where: { creativeId: c.id } })).toBe(1);
    expect((await eventsOf("review.comment")).map((e) => JSON.parse(e.body).data.comment)).toContainEqual(
      expect.objectContaining({ creativeId: c.id, body: comment.body, author: "Rita Reviewer", guest: false }),
    );
  });

  it("review.link_viewed: a refused event leaves the view unclaimed, so the next open emits it", async () => {
    const { recordLinkView } = await import("@/lib/review/link-views");
    const link = await db.reviewLink.create({
      data: { id: "rvl_atomic", workspaceId, createdById: ownerUserId, name: "Spring batch", tokenHash: "hash-atomic" },
    });
    await refusingEvents(() => recordLinkView(link));
    expect((await db.reviewLink.findUniqueOrThrow({ where: { id: link.id } })).lastViewEventAt).toBeNull();
    expect(await recordLinkView(link)).toEqual({ emitted: true });
    expect(await eventsOf("review.link_viewed")).toHaveLength(1);
  });

  it("team.member_joined: a refused event leaves the invite open and creates no account", async () => {
    const { acceptInviteWithNewAccount } = await import("@/lib/team/invites");
    const token = "atomic-invite-token";
    await db.invite.create({
      data: {
        id: "inv_atomic",
        workspaceId,
        email: "newcomer@example.com",
        role: "editor",
        tokenHash: createHash("sha256").update(token).digest("hex"),
        invitedById: ownerUserId,
        expiresAt: new Date(Date.now() + 86_400_000),
      },
    });
    await refusingEvents(() => acceptInviteWithNewAccount(token, { name: "Nia Newcomer", password: "a long enough password" }));
    expect(await db.user.findUnique({ where: { email: "newcomer@example.com" } })).toBeNull();
    expect((await db.invite.findUniqueOrThrow({ where: { id: "inv_atomic" } })).acceptedAt).toBeNull();

    const { userId } = await acceptInviteWithNewAccount(token, { name: "Nia Newcomer", password: "a long enough password" });
    expect(await db.membership.count({ where: { workspaceId, userId } })).toBe(1);
    expect((await eventsOf("team.member_joined")).map((e) => JSON.parse(e.body).data.member)).toEqual([
      { name: "Nia Newcomer", email: "newcomer@example.com" },
    ]);
  });

  it("task.assigned and task.comment: a refused event leaves no task and no comment", async () => {
    const { principalForUser } = await import("@/lib/session/principal");
    const { createTask, createTaskList, updateTask } = await import("@/lib/tasks/tasks");
    const { addTaskComment } = await import("@/lib/tasks/task-comments");
    const principal = (await principalForUser(ownerUserId, workspaceId))!;
    const { list } = await createTaskList(principal, { name: "Launch" });
    await refusingEvents(() => createTask(principal, { listId: list.id, title: "Cut the teaser", assigneeIds: [ownerUserId] }));
    expect(await db.task.count({ where: { workspaceId } })).toBe(0);

    const { task } = await createTask(principal, { listId: list.id, title: "Cut the teaser" });
    await refusingEvents(() => updateTask(principal, { id: task.id, assigneeIds: [ownerUserId] }));
    expect(await db.taskAssignee.count({ where: { taskId: task.id } })).toBe(0);
    await refusingEvents(() => addTaskComment(principal, { taskId: task.id, body: "Draft is in the folder" }));
    expect(await db.taskComment.count({ where: { taskId: task.id } })).toBe(0);

    await updateTask(principal, { id: task.id, assigneeIds: [ownerUserId] });
    await addTaskComment(principal, { taskId: task.id, body: "Draft is in the folder" });
    const [assigned] = await eventsOf("task.assigned");
    expect(JSON.parse(assigned!.body).data).toMatchObject({
      task: { taskId: task.id, title: "Cut the teaser" },
      list: { listId: list.id, name: "Launch" },
      assignees: [{ userId: ownerUserId }],
    });
    const [comment] = await eventsOf("task.comment");
    expect(JSON.parse(comment!.body).data.comment).toMatchObject({ body: "Draft is in the folder" });
  });
});

/** A tool call through the one way in every surface takes (lib/tools/call.ts); throws what it throws, answers the result. */
async function tool(name: string, args: unknown) {
  const { callTool } = await import("@/lib/tools/call");
  const outcome = await callTool(owner, name, args);
  if (!outcome.ok) throw new Error(`${name}: ${JSON.stringify(outcome.body)}`);
  return outcome.body.result as any;
}

describe("a tool's rows commit together or not at all", () => {
  it("request_review: a refused event leaves no reviewer asked, no status and no history; then all of them together", async () => {
    const c = await creative();
    await refusingEvents(() => tool("request_review", { creativeId: c.id, reviewerIds: [ownerUserId], note: "Before Friday" }));
    expect(await db.reviewRequest.count({ where: { creativeId: c.id } })).toBe(0);
    expect(await db.creativeReview.findUnique({ where: { creativeId: c.id } })).toBeNull();
    expect(await db.reviewStatusChange.count({ where: { creativeId: c.id } })).toBe(0);

    const { review } = await tool("request_review", { creativeId: c.id, reviewerIds: [ownerUserId], note: "Before Friday" });
    expect(review).toMatchObject({ status: "in_review", requestedReviewers: [{ userId: ownerUserId }] });
    expect(await db.reviewStatusChange.findMany({ where: { creativeId: c.id }, select: { status: true, note: true } })).toEqual([
      { status: "in_review", note: "Before Friday" },
    ]);
    expect((await eventsOf("review.status_changed")).filter((e) => JSON.parse(e.body).data.review.creativeId === c.id)).toHaveLength(1);
  });

  it("share_board: a refused board share leaves no review link behind (a link sharing the board's creatives without the board)", async () => {
    const c = await creative();
    const { board } = await tool("create_board", { name: "Launch plan" });
    await tool("add_board_item", { boardId: board.id, kind: "creative", creativeId: c.id, x: 0, y: 0 });
    const links = () => db.reviewLink.count({ where: { workspaceId } });
    const before = await links();
    await refusingEvents(() => tool("share_board", { boardId: board.id }), "board_shares");
    expect(await links()).toBe(before);
    expect(await db.reviewLinkCreative.count({ where: { creativeId: c.id } })).toBe(0);

    const { link } = await tool("share_board", { boardId: board.id });
    expect(await links()).toBe(before + 1);
    expect(await db.boardShare.findUnique({ where: { linkId: link.id } })).toMatchObject({ boardId: board.id });
  });
});
