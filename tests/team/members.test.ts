/**
 * Changing and removing members through the team tools: who may touch an owner, a workspace never left
 * without one (two owners removing each other at the same moment), and what a removal takes with it.
 * Runs on PostgreSQL too, where the two removals truly run at once.
 */
import { describe, expect, inject, it } from "vitest";
import { signIn, submitPageForm } from "../dashboard/session";
import { admin, api, createMemberKey, createTenant } from "../helpers/fixtures";
import { itOnce } from "../helpers/run-once";
import { callTool, toolResult } from "../tools/helpers";

let n = 0;
const email = () => `member-${Date.now()}-${process.pid}-${++n}@example.com`;

describe("team members", () => {
  it("an admin may neither change nor remove an owner: 403 forbidden", async () => {
    const t = await createTenant();
    const adminKey = await createMemberKey(t, { role: "admin" });
    const change = await callTool(adminKey.key, "update_member", { userId: t.ownerUserId, role: "viewer", folderIds: [] });
    const remove = await callTool(adminKey.key, "remove_member", { userId: t.ownerUserId });
    for (const res of [change, remove]) expect([res.status, res.body.error.code]).toEqual([403, "forbidden"]);
    expect((await api(t.key)("/api/v1/me")).status).toBe(200);
  });

  it("two owners removing or demoting each other at once: one change is made, the workspace keeps an owner", async () => {
    for (const round of [1, 2, 3]) {
      const t = await createTenant();
      const second = await createMemberKey(t, { role: "owner" });
      const [a, b] = await Promise.all(
        round === 3
          ? [
              callTool(t.key, "update_member", { userId: second.userId, role: "viewer", folderIds: [] }),
              callTool(second.key, "update_member", { userId: t.ownerUserId, role: "viewer", folderIds: [] }),
            ]
          : [callTool(t.key, "remove_member", { userId: second.userId }), callTool(second.key, "remove_member", { userId: t.ownerUserId })],
      );
      expect(
        [a.status, b.status].filter((s) => s === 200),
        `round ${round}: ${JSON.stringify([a.body, b.body])}`,
      ).toHaveLength(1);
      // The other is refused: it lost the race for the lock (conflict), or its owner was already demoted (forbidden)
      // or removed (unauthorized) when it was authenticated.
      expect(["conflict", "forbidden", "unauthorized"]).toContain([a, b].find((r) => r.status !== 200)!.body.error.code);
      // Exactly one owner is left: /me shows the credits to owners only (a removed member's key is refused).
      const owners = [];
      for (const key of [t.key, second.key]) {
        const me = await api(key)("/api/v1/me");
        if (me.status === 200 && me.body.account.credits !== null) owners.push(key);
      }
      expect(owners, `round ${round}`).toHaveLength(1);
    }
  });

  it("a removed member's API keys stay revoked when they rejoin", async () => {
    const t = await createTenant();
    const address = email();
    const { userId } = await admin(["member", "add", "--workspace", t.workspaceId, "--email", address, "--role", "editor"]);
    const { key } = await admin(["key", "create", "--workspace", t.workspaceId, "--user", userId!]);
    expect((await api(key!)("/api/v1/me")).status).toBe(200);
    await toolResult(t.key, "remove_member", { userId });
    expect((await api(key!)("/api/v1/me")).status).toBe(401);
    await admin(["member", "add", "--workspace", t.workspaceId, "--email", address, "--role", "viewer"]);
    expect((await api(key!)("/api/v1/me")).status).toBe(401);
    const { key: fresh } = await admin(["key", "create", "--workspace", t.workspaceId, "--user", userId!]);
    expect((await api(fresh!)("/api/v1/me")).status).toBe(200);
  });

  itOnce("an invite works only while its sender may still make it: a removed or demoted admin's invites stop working", async () => {
    const t = await createTenant();
    const page = (path: string) => fetch(inject("baseUrl") + path).then((r) => r.text());
    const inviteBy = async (key: string, role: string, address = email()) =>
      new URL((await toolResult(key, "invite_member", { email: address, role })).invite.url).pathname;

    // An admin about to be removed invites an address of their own as admin, and keeps the page's form.
    const leaving = await createMemberKey(t, { role: "admin" });
    const invitee = email();
    const backDoor = await inviteBy(leaving.key, "admin", invitee);
    const form = await page(backDoor);
    expect(form).toContain("Create account and join");
    await toolResult(t.key, "remove_member", { userId: leaving.userId });
    // Posting that form after the removal makes no account and no member; the link's page says so.
    await submitPageForm(backDoor, { name: "Back Door", password: "a long enough password" }, { html: form });
    expect((await signIn(invitee, "a long enough password")).signedIn).toBe(false);
    expect(await page(backDoor)).toContain("This invite cannot be used");

    // Demoted to editor (no team.manage): the same.
    const demoted = await createMemberKey(t, { role: "admin" });
    const pending = await inviteBy(demoted.key, "editor");
    await toolResult(t.key, "update_member", { userId: demoted.userId, role: "editor", folderIds: [] });
    expect(await page(pending)).toContain("This invite cannot be used");
    // An admin's invite still works while they are one.
    expect(await page(await inviteBy((await createMemberKey(t, { role: "admin" })).key, "admin"))).toContain("Create account and join");
  });
});
