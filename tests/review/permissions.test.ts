import { describe, expect, it } from "vitest";
import { createMemberKey, createTenant } from "../helpers/fixtures";
import { callTool, pngBase64, readyCreative, toolResult } from "../tools/helpers";

/** One call per review tool, on a creative (and a comment, a link) of the tenant. */
async function calls(t: Awaited<ReturnType<typeof createTenant>>) {
  const { creativeId } = await readyCreative(t.key);
  const { threadId } = await toolResult(t.key, "add_comment", { creativeId, body: "owner's" });
  const { link } = await toolResult(t.key, "create_review_link", { name: "l", creativeIds: [creativeId] });
  return {
    get_review_status: { creativeId },
    list_review_history: { creativeId },
    list_comments: { creativeId },
    list_creative_versions: { creativeId },
    set_review_status: { creativeId, status: "approved" },
    request_review: { creativeId, reviewerIds: [t.ownerUserId] },
    add_comment: { creativeId, body: "x" },
    reply_to_comment: { commentId: threadId, body: "x" },
    resolve_comment: { commentId: threadId },
    reopen_comment: { commentId: threadId },
    add_creative_version: { creativeId, file: { fileName: "v.png", contentBase64: await pngBase64() } },
    create_review_link: { name: "x", creativeIds: [creativeId] },
    list_review_links: {},
    revoke_review_link: { id: link.id },
    get_review_link_url: { id: link.id },
  } as Record<string, Record<string, unknown>>;
}

const READS = ["get_review_status", "list_review_history", "list_comments", "list_creative_versions"];
const COMMENT = ["request_review", "add_comment", "reply_to_comment", "resolve_comment", "reopen_comment"];
const REVIEW = ["set_review_status"];
const SHARE = ["create_review_link", "list_review_links", "get_review_link_url", "revoke_review_link"];
const VERSION = ["add_creative_version"];
const ALL = [...READS, ...COMMENT, ...REVIEW, ...SHARE, ...VERSION];

async function allowedTools(key: string, args: Record<string, Record<string, unknown>>): Promise<string[]> {
  const allowed: string[] = [];
  for (const name of ALL) {
    const res = await callTool(key, name, args[name]);
    if (res.status === 200) allowed.push(name);
    else expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(403);
  }
  return allowed.sort();
}

describe("who may use the review tools", () => {
  it("roles: owners, admins and editors may do everything; viewers only read", async () => {
    const t = await createTenant();
    const args = await calls(t);
    for (const role of ["admin", "editor"] as const) {
      const { key } = await createMemberKey(t, { role });
      expect(await allowedTools(key, { ...args, revoke_review_link: (await calls(t)).revoke_review_link! }), role).toEqual([...ALL].sort());
    }
    const viewer = await createMemberKey(t, { role: "viewer" });
    expect(await allowedTools(viewer.key, args)).toEqual([...READS].sort());
  }, 180_000);

  it("scopes: comment, review, share and upload each open their tools; reads need no scope", async () => {
    const t = await createTenant();
    for (const [scope, tools] of [
      ["comment", COMMENT],
      ["review", REVIEW],
      ["share", SHARE],
      ["upload", VERSION],
      ["edit", []],
    ] as const) {
      const args = await calls(t);
      const { key } = await createMemberKey(t, { role: "editor", scopes: [scope] });
      expect(await allowedTools(key, args), scope).toEqual([...READS, ...tools].sort());
    }
  }, 240_000);

  it("folder-scoped members reach only their folders' creatives", async () => {
    const t = await createTenant();
    const { folder } = await toolResult(t.key, "create_folder", { name: "Theirs" });
    const outside = await readyCreative(t.key);
    const member = await createMemberKey(t, { role: "editor", folders: [folder.id] });
    for (const name of ["get_review_status", "add_comment", "set_review_status"]) {
      const res = await callTool(member.key, name, {
        creativeId: outside.creativeId,
        ...(name === "add_comment" ? { body: "x" } : {}),
        ...(name === "set_review_status" ? { status: "approved" } : {}),
      });
      expect(res.status, name).toBe(404);
    }
    expect((await callTool(member.key, "create_review_link", { name: "x", creativeIds: [outside.creativeId] })).status).toBe(404);
  });
});
