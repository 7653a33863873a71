/**
 * Every dashboard server action that writes (or reads through a tool) is a tool call: each is
 * imported and called directly, as Next's server-action endpoint would run it, as the signed-in
 * member (the session lookup is the one thing replaced), against a real database, with input the
 * tool refuses; the action answers the tool's own refusal (code and message), which is what
 * callTool gives the same principal for the same arguments.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import { disposeServices } from "@/lib/services";
import { useFreshDatabase } from "../helpers/in-process-db";

const session = vi.hoisted(() => ({ principal: null as Principal | null }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("@/lib/dashboard/current", () => ({
  requirePrincipal: async () => session.principal!,
  currentPrincipal: async () => session.principal,
  currentUserId: async () => session.principal?.userId ?? null,
  setActiveWorkspaceCookie: async () => undefined,
}));

type Review = typeof import("@/app/dashboard/library/[id]/review-actions");
type Links = typeof import("@/app/dashboard/review-links/actions");
type Library = typeof import("@/app/dashboard/library/library-actions");
type Folders = typeof import("@/app/dashboard/library/actions");
type Team = typeof import("@/app/dashboard/settings/team/actions");
type Plan = typeof import("@/app/dashboard/settings/plan/actions");
let review: Review, links: Links, library: Library, folders: Folders, team: Team, plan: Plan;
let callTool: typeof import("@/lib/tools/call").callTool;
let owner: Principal;
let viewer: Principal;
let folderId: string;

beforeAll(async () => {
  await useFreshDatabase("server_actions");
  const { createWorkspace } = await import("@/lib/workspaces/workspaces");
  const { addMember } = await import("@/lib/team/members");
  const { principalForUser } = await import("@/lib/session/principal");
  const ws = await createWorkspace({ name: "Actions", plan: "pro" });
  owner = (await principalForUser(ws.ownerUserId))!;
  const { userId } = await addMember({ workspaceId: ws.workspaceId, email: "viewer@example.com", role: "viewer" });
  viewer = (await principalForUser(userId))!;
  [review, links, library, folders, team, plan] = await Promise.all([
    import("@/app/dashboard/library/[id]/review-actions"),
    import("@/app/dashboard/review-links/actions"),
    import("@/app/dashboard/library/library-actions"),
    import("@/app/dashboard/library/actions"),
    import("@/app/dashboard/settings/team/actions"),
    import("@/app/dashboard/settings/plan/actions"),
  ]);
  callTool = (await import("@/lib/tools/call")).callTool;
  session.principal = owner;
  const created = await folders.createFolderAction({ name: "Spring", parentId: null });
  if (!created.ok) throw new Error(created.error);
  folderId = created.data.id;
});
afterAll(disposeServices);

/** The action's answer is the refusal the tool gives the same principal for the same arguments. */
async function expectToolRefusal(answer: Promise<unknown>, tool: string, args: Record<string, unknown>, code: string) {
  const direct = await callTool(session.principal!, tool, args);
  expect(direct.ok, `${tool} refuses ${JSON.stringify(args)}`).toBe(false);
  if (direct.ok) return;
  expect(direct.body.error.code).toBe(code);
  expect(await answer).toEqual({ ok: false, code, error: direct.body.error.message });
}

const share = { name: "For the client", expiresAt: "", comment: true, decide: false, download: false };
const longBody = "x".repeat(20_000);

describe("dashboard server actions answer the tool's refusal", () => {
  it("share a creative or a folder: a one-character password", async () => {
    session.principal = owner;
    await expectToolRefusal(
      review.shareCreativeAction({ ...share, creativeId: "crv_any", password: "x" }),
      "create_review_link",
      { name: share.name, creativeIds: ["crv_any"], password: "x", permissions: { comment: true, decide: false, download: false } },
      "invalid_input",
    );
    await expectToolRefusal(
      links.shareFolderAction({ ...share, folderId, password: "x" }),
      "create_review_link",
      { name: share.name, folderId, password: "x", permissions: { comment: true, decide: false, download: false } },
      "invalid_input",
    );
  });

  it("comments: an empty or over-long body, a pin off the image, a bad version", async () => {
    session.principal = owner;
    await expectToolRefusal(
      review.addCommentAction({ creativeId: "crv_any", body: " ", timeSeconds: null, pin: null }),
      "add_comment",
      { creativeId: "crv_any", body: " ", timeSeconds: null, pin: null },
      "invalid_input",
    );
    await expectToolRefusal(
      review.addCommentAction({ creativeId: "crv_any", body: longBody, timeSeconds: null, pin: null }),
      "add_comment",
      { creativeId: "crv_any", body: longBody, timeSeconds: null, pin: null },
      "invalid_input",
    );
    const pin = { x: 2, y: 0.5 };
    await expectToolRefusal(
      review.addCommentAction({ creativeId: "crv_any", body: "Logo", timeSeconds: null, pin }),
      "add_comment",
      { creativeId: "crv_any", body: "Logo", timeSeconds: null, pin },
      "invalid_input",
    );
    await expectToolRefusal(review.replyAction("cmt_any", longBody), "reply_to_comment", { commentId: "cmt_any", body: longBody }, "invalid_input");
    await expectToolRefusal(review.resolveAction("", true), "resolve_comment", { commentId: "" }, "invalid_input");
    await expectToolRefusal(review.resolveAction("", false), "reopen_comment", { commentId: "" }, "invalid_input");
    await expectToolRefusal(review.deleteCommentAction(""), "delete_comment", { commentId: "" }, "invalid_input");
    await expectToolRefusal(review.loadThreadsAction("crv_any", 0), "list_comments", { creativeId: "crv_any", version: 0 }, "invalid_input");
  });

  it("review status: an unknown status, no reviewers, an unknown creative", async () => {
    session.principal = owner;
    await expectToolRefusal(
      review.setStatusAction("crv_any", "bogus" as never),
      "set_review_status",
      { creativeId: "crv_any", status: "bogus" },
      "invalid_input",
    );
    await expectToolRefusal(review.requestReviewAction("crv_any", []), "request_review", { creativeId: "crv_any", reviewerIds: [] }, "invalid_input");
    await expectToolRefusal(review.reviewStateAction("crv_missing"), "get_review_status", { creativeId: "crv_missing" }, "not_found");
    await expectToolRefusal(links.revokeLinkAction(""), "revoke_review_link", { id: "" }, "invalid_input");
    await expectToolRefusal(links.reviewLinkUrlAction(""), "get_review_link_url", { id: "" }, "invalid_input");
  });

  it("library: folder names, moves and deletes the tools refuse", async () => {
    session.principal = owner;
    await expectToolRefusal(folders.createFolderAction({ name: "  ", parentId: null }), "create_folder", { name: "  ", parentId: null }, "invalid_input");
    await expectToolRefusal(library.renameFolderAction(folderId, "x".repeat(300)), "rename_folder", { id: folderId, name: "x".repeat(300) }, "invalid_input");
    await expectToolRefusal(library.moveCreativesAction([], null), "move_creatives", { ids: [], folderId: null }, "invalid_input");
    await expectToolRefusal(
      library.moveCreativesAction(["crv_any"], "fld_missing"),
      "move_creatives",
      { ids: ["crv_any"], folderId: "fld_missing" },
      "not_found",
    );
    await expectToolRefusal(library.deleteFolderAction("fld_missing"), "delete_folder", { id: "fld_missing" }, "not_found");
  });

  it("team and plan: what the team and plan tools refuse", async () => {
    session.principal = owner;
    await expectToolRefusal(
      team.inviteAction({ email: "not-an-email", role: "editor", folderIds: [] }),
      "invite_member",
      { email: "not-an-email", role: "editor", folderIds: [] },
      "invalid_input",
    );
    await expectToolRefusal(
      team.inviteAction({ email: "a@example.com", role: "boss" as never, folderIds: [] }),
      "invite_member",
      { email: "a@example.com", role: "boss", folderIds: [] },
      "invalid_input",
    );
    await expectToolRefusal(
      team.updateMemberAction(owner.userId, { role: "viewer", folderIds: [] }),
      "update_member",
      { userId: owner.userId, role: "viewer", folderIds: [] },
      "conflict",
    );
    await expectToolRefusal(team.removeMemberAction(owner.userId), "remove_member", { userId: owner.userId }, "conflict");
    await expectToolRefusal(team.revokeInviteAction("inv_missing"), "revoke_invite", { id: "inv_missing" }, "not_found");
    await expectToolRefusal(plan.subscribePro(), "change_plan", { plan: "pro" }, "conflict");
  });

  it("a viewer: every write is the tool's permission refusal", async () => {
    session.principal = viewer;
    await expectToolRefusal(library.renameFolderAction(folderId, "Mine now"), "rename_folder", { id: folderId, name: "Mine now" }, "forbidden");
    await expectToolRefusal(
      links.shareFolderAction({ ...share, folderId, password: "" }),
      "create_review_link",
      { name: share.name, folderId, permissions: { comment: true, decide: false, download: false } },
      "forbidden",
    );
    await expectToolRefusal(
      review.addCommentAction({ creativeId: "crv_any", body: "Hi", timeSeconds: null, pin: null }),
      "add_comment",
      { creativeId: "crv_any", body: "Hi", timeSeconds: null, pin: null },
      "forbidden",
    );
    await expectToolRefusal(
      team.inviteAction({ email: "b@example.com", role: "viewer", folderIds: [] }),
      "invite_member",
      { email: "b@example.com", role: "viewer", folderIds: [] },
      "forbidden",
    );
    await expectToolRefusal(plan.cancelPlan(), "change_plan", { plan: null }, "forbidden");
  });

  it("a workspace whose trial has ended may only choose a plan: every other action answers subscription_required", async () => {
    const { createWorkspace } = await import("@/lib/workspaces/workspaces");
    const { principalForUser } = await import("@/lib/session/principal");
    const { getDb } = await import("@/lib/db/client");
    const ws = await createWorkspace({ name: "Lapsed", plan: null });
    await getDb().workspace.update({ where: { id: ws.workspaceId }, data: { trialEndsAt: new Date(Date.now() - 60_000) } });
    session.principal = (await principalForUser(ws.ownerUserId))!;
    const refused = { ok: false, code: "subscription_required", error: "This workspace's trial has ended; choose a plan to continue" };
    expect(await folders.createFolderAction({ name: "After the trial", parentId: null })).toEqual(refused);
    expect(await team.inviteAction({ email: "late@example.com", role: "editor", folderIds: [] })).toEqual(refused);
    expect(await getDb().folder.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
    expect(await plan.subscribePro()).toMatchObject({ ok: true });
    session.principal = (await principalForUser(ws.ownerUserId))!;
    expect(await folders.createFolderAction({ name: "On a plan", parentId: null })).toMatchObject({ ok: true });
  });

  it("actions that are not tools refuse arguments of the wrong type with the form's message, not a server error", async () => {
    session.principal = owner;
    const keys = await import("@/app/dashboard/settings/api-keys/actions");
    const profile = await import("@/app/dashboard/settings/profile/actions");
    const uploads = await import("@/app/dashboard/uploads/actions");
    const answers = [
      await keys.createKeyAction({ name: 5, scopes: 5 } as never),
      await keys.revokeKeyAction({ id: "key_1" } as never),
      await profile.changePasswordAction({ current: "x", next: 123_456_789_012 } as never),
      await profile.updateProfileAction({ name: ["Ann"], timeZone: "UTC" } as never),
      await profile.createWorkspaceAction(null as never),
      await library.loadLibraryPageAction({ createdAfter: 5 } as never, null),
      await library.loadLibraryPageAction({ bogus: true } as never, null),
      await uploads.uploadProgressAction("upl_1" as never),
    ];
    for (const answer of answers) expect(answer).toMatchObject({ ok: false, code: "invalid_request", error: expect.stringMatching(/^Invalid input: /) });
    expect(await library.loadLibraryPageAction({ search: "spring" }, null)).toMatchObject({ ok: true });
  });

  it("a valid share from the dashboard creates the link the tool creates", async () => {
    session.principal = owner;
    const shared = await links.shareFolderAction({ ...share, folderId, password: "long enough" });
    expect(shared).toMatchObject({ ok: true, data: { link: { name: share.name }, url: expect.stringContaining("/review/") } });
  });
});
