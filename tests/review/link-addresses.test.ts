import { describe, expect, it } from "vitest";
import { createMemberKey, createTenant } from "../helpers/fixtures";
import { callTool, readyCreative, toolResult } from "../tools/helpers";
import { guest, reviewLink } from "./helpers";

describe("review links: listed with what they share, their address shown again to those who may manage them", () => {
  it("lists each link's creatives or folder by name and gives back the very address the link was made with", async () => {
    const t = await createTenant();
    const a = await readyCreative(t.key, `summer-${Date.now()}.png`);
    const b = await readyCreative(t.key, `teaser-${Date.now()}.png`);
    const { folder } = await toolResult(t.key, "create_folder", { name: "Campaign Q3" });
    const byCreatives = await reviewLink(t.key, { creativeIds: [a.creativeId, b.creativeId] });
    const byFolder = await reviewLink(t.key, { folderId: folder.id });

    const { links } = await toolResult(t.key, "list_review_links", {});
    const listed = (id: string) => links.find((l: { id: string }) => l.id === id);
    expect(listed(byCreatives.id)).toMatchObject({
      copyable: true,
      shares: { folderName: null, creativeNames: expect.arrayContaining([a.fileName, b.fileName]), creativeCount: 2 },
    });
    expect(listed(byFolder.id)).toMatchObject({ copyable: true, shares: { folderName: "Campaign Q3", creativeNames: [], creativeCount: 0 } });

    const again = await toolResult(t.key, "get_review_link_url", { id: byCreatives.id });
    expect(again.url).toBe(byCreatives.url);
    // The address works for guests: it is the link's token.
    const view = await guest(`/api/review/${new URL(again.url).pathname.split("/").pop()}`);
    expect(view.status).toBe(200);
    expect(view.body.creatives).toHaveLength(2);
  });

  it("only for members who may share, within their workspace, and only while the link is active", async () => {
    const t = await createTenant();
    const c = await readyCreative(t.key);
    const link = await reviewLink(t.key, { creativeIds: [c.creativeId] });

    const viewer = await createMemberKey(t, { role: "viewer" });
    const refused = await callTool(viewer.key, "get_review_link_url", { id: link.id });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("forbidden");

    const other = await createTenant();
    const foreign = await callTool(other.key, "get_review_link_url", { id: link.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toEqual({ code: "not_found", message: "Review link not found" });
    expect(JSON.stringify(foreign.body)).not.toContain("rvl_");

    const unknown = await callTool(t.key, "get_review_link_url", { id: "rvl_doesnotexist000000" });
    expect(unknown.status).toBe(404);

    await toolResult(t.key, "revoke_review_link", { id: link.id });
    const revoked = await callTool(t.key, "get_review_link_url", { id: link.id });
    expect(revoked.status).toBe(409);
    expect(revoked.body.error).toMatchObject({ code: "conflict", message: expect.stringContaining("revoked") });
  });
});
