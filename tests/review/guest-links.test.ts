import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";
import { admin, api, createTenant } from "../helpers/fixtures";
import { allCreatives, finishedUpload } from "../helpers/library";
import { callTool, pngBase64, readyCreative, toolResult } from "../tools/helpers";
import { until } from "../helpers/wait";
import { guest, reviewLink } from "./helpers";

const WHO = { name: "Gina Guest", email: "gina@example.com" };

/** The plain not-found answers every unusable token gets (API and page). */
async function unavailable(token: string) {
  const apiRes = await guest(`/api/review/${token}`);
  const page = await fetch(`${(await import("vitest")).inject("baseUrl")}/review/${token}`);
  const html = await page.text();
  return { apiStatus: apiRes.status, apiBody: apiRes.body, pageStatus: page.status, pageSaysUnavailable: html.includes("This review link is not available") };
}

describe("a review link's isolation", () => {
  it("shows its creatives only, and no id guessing or path trick reaches another creative, version, folder or workspace", async () => {
    const t = await createTenant();
    const shared = await readyCreative(t.key);
    const sibling = await readyCreative(t.key);
    const foreign = await readyCreative((await createTenant()).key);
    const { token } = await reviewLink(t.key, { creativeIds: [shared.creativeId], permissions: { comment: true, decide: true } });

    const view = await guest(`/api/review/${token}`);
    expect(view.status).toBe(200);
    expect(view.body.creatives.map((c: any) => c.id)).toEqual([shared.creativeId]);
    expect(JSON.stringify(view.body)).not.toContain(sibling.creativeId);

    // Comments and decisions on creatives the link does not share: the same 404 as an id that does not exist.
    for (const creativeId of [sibling.creativeId, foreign.creativeId, "crt_doesnotexist"]) {
      const c = await guest(`/api/review/${token}/comments`, { method: "POST", json: { creativeId, ...WHO, body: "hi" } });
      expect(c.status).toBe(404);
      expect(c.body.error).toEqual({ code: "not_found", message: "Creative not found" });
      const d = await guest(`/api/review/${token}/decision`, { method: "POST", json: { creativeId, ...WHO, decision: "approved" } });
      expect(d.status).toBe(404);
    }
    expect((await toolResult(t.key, "get_review_status", { creativeId: sibling.creativeId })).review.status).toBe("none");
    expect((await toolResult(t.key, "list_comments", { creativeId: sibling.creativeId })).threads).toEqual([]);

    // Media: the signed URL works for its creative and rendition only.
    const mediaUrl: string = view.body.creatives[0].mediaUrl;
    // An image is shown as its 960 px WebP thumbnail, not the original.
    expect(mediaUrl).toContain("r=thumbnail");
    const ok = await fetch(inject("baseUrl") + mediaUrl);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("image/webp");
    expect((await sharp(Buffer.from(await ok.arrayBuffer())).metadata()).format).toBe("webp");
    expect(view.body.creatives[0].posterUrl).toBeNull();
    const swapped = mediaUrl.replace(shared.creativeId, sibling.creativeId);
    expect((await guest(swapped)).status).toBe(404);
    expect((await guest(mediaUrl.replace("r=thumbnail", "r=download"))).status).toBe(404);
    expect((await guest(mediaUrl.replace(/sig=[^&]+/, "sig=AAAA"))).status).toBe(404);
    expect((await guest(mediaUrl.replace(/exp=\d+/, "exp=9999999999"))).status).toBe(404);
    expect((await guest(mediaUrl.split("?")[0]!)).status).toBe(404);
    const otherLink = await reviewLink(t.key, { creativeIds: [sibling.creativeId] });
    expect((await guest(mediaUrl.replace(token, otherLink.token))).status).toBe(404); // signed for another link
    for (const trick of [
      `/api/review/${token}/media/..%2F..%2Fmedia%2F${sibling.creativeId}`,
      `/api/review/${token}/media/${shared.creativeId}%2F..%2F${sibling.creativeId}?${mediaUrl.split("?")[1]}`,
      `/api/review/${token}/media/${encodeURIComponent(`${sibling.creativeId}/../${shared.creativeId}`)}?${mediaUrl.split("?")[1]}`,
    ]) {
      expect((await guest(trick)).status).toBe(404);
    }
    // Versions and the member media routes need a key or a session.
    expect((await guest(`/api/media/${shared.creativeId}`)).status).toBe(401);
    expect((await guest(`/api/media/${shared.creativeId}/versions/1`)).status).toBe(401);
    // Downloads are off unless the link allows them.
    expect(view.body.creatives[0].downloadUrl).toBeNull();
  });

  it("a folder link shows the folder and its subfolders, never a sibling folder; deleting its folder deletes it", async () => {
    const t = await createTenant();
    const { folder: parent } = await toolResult(t.key, "create_folder", { name: "Campaign" });
    const { folder: child } = await toolResult(t.key, "create_folder", { name: "Cuts", parentId: parent.id });
    const { folder: other } = await toolResult(t.key, "create_folder", { name: "Other" });
    const { uploads } = await toolResult(t.key, "create_upload", {
      files: [{ fileName: "in-child.png", contentBase64: await pngBase64(), contentType: "image/png" }],
      folderId: child.id,
    });
    const { uploads: others } = await toolResult(t.key, "create_upload", {
      files: [{ fileName: "in-other.png", contentBase64: await pngBase64(), contentType: "image/png" }],
      folderId: other.id,
    });
    await finishedUpload(t.key, uploads[0].id, 60_000);
    await finishedUpload(t.key, others[0].id, 60_000);
    const { token } = await reviewLink(t.key, { folderId: parent.id });
    const names = await (async () => {
      for (let i = 0; i < 100; i++) {
        const v = await guest(`/api/review/${token}`);
        if (v.body.creatives.length) return v.body.creatives.map((c: any) => c.fileName);
        await new Promise((r) => setTimeout(r, 200));
      }
      return [];
    })();
    expect(names).toEqual(["in-child.png"]);
    const foreignFolder = await callTool((await createTenant()).key, "create_review_link", { name: "x", folderId: parent.id });
    expect(foreignFolder.status).toBe(404);

    // Deleting a shared (empty) folder deletes the links that share it: its guests get the answer of a revoked link,
    // where before the link stayed active and showed an empty review, and the team's list no longer shows it.
    const { folder: drafts } = await toolResult(t.key, "create_folder", { name: "Drafts", parentId: parent.id });
    const draftsLink = await reviewLink(t.key, { folderId: drafts.id });
    expect((await guest(`/api/review/${draftsLink.token}`)).status).toBe(200);
    expect(await toolResult(t.key, "delete_folder", { id: drafts.id })).toEqual({ ok: true });
    expect(await unavailable(draftsLink.token)).toEqual({
      apiStatus: 404,
      apiBody: { error: { code: "not_found", message: "Review link not found" } },
      pageStatus: 404,
      pageSaysUnavailable: true,
    });
    expect((await toolResult(t.key, "list_review_links", {})).links.map((l: any) => l.id)).not.toContain(draftsLink.id);
    expect((await guest(`/api/review/${token}`)).body.creatives.map((c: any) => c.fileName)).toEqual(["in-child.png"]);
  });
});

describe("a folder link's size", () => {
  it("pages through a folder of 520 creatives to its last one, which a guest then comments on and approves", async () => {
    const t = await createTenant();
    const { folder } = await toolResult(t.key, "create_folder", { name: "Everything" });
    // Seeded as the operator's `library seed` does (one insert; createdAt one second apart, seed-0001 the newest).
    await admin(["library", "seed", "--workspace", t.workspaceId, "--count", "520", "--folder", folder.id]);
    const { token } = await reviewLink(t.key, { folderId: folder.id, permissions: { comment: true, decide: true } });

    const first = await guest(`/api/review/${token}`);
    expect(first.status).toBe(200);
    expect([first.body.creatives.length, first.body.creativeCount, typeof first.body.nextCursor]).toEqual([50, 520, "string"]);
    const seen: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      pages++;
      const page = await guest(`/api/review/${token}?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.creatives);
      cursor = page.body.nextCursor;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(cursor).toBeNull();
    // Every creative of the folder, once each, oldest first: the guest reaches the last one too.
    expect(new Set(seen.map((c) => c.id)).size).toBe(520);
    expect(seen.map((c) => c.id).sort()).toEqual((await allCreatives(t.key)).map((c) => c.id).sort());
    expect([seen[0].fileName, seen[519].fileName]).toEqual(["seed-0520.png", "seed-0001.png"]);
    expect((await guest(`/api/review/${token}?cursor=not-a-cursor`)).status).toBe(400);
    expect((await guest(`/api/review/${token}?limit=201`)).status).toBe(400);

    const last = seen[519];
    const commented = await guest(`/api/review/${token}/comments`, { method: "POST", json: { creativeId: last.id, ...WHO, body: "The last one, at last" } });
    expect(commented.status).toBe(201);
    const approved = await guest(`/api/review/${token}/decision`, { method: "POST", json: { creativeId: last.id, ...WHO, decision: "approved" } });
    expect(approved.body.creative).toMatchObject({ id: last.id, status: "approved", threads: [expect.objectContaining({ body: "The last one, at last" })] });
    expect((await toolResult(t.key, "get_review_status", { creativeId: last.id })).review.status).toBe("approved");
  }, 120_000);
});

describe("password, expiry and revocation", () => {
  it("a password link shows nothing until the password is given; wrong passwords are slow", async () => {
    const t = await createTenant();
    const c = await readyCreative(t.key);
    const { token } = await reviewLink(t.key, { creativeIds: [c.creativeId], password: "open sesame" });

    const locked = await guest(`/api/review/${token}`);
    expect(locked.status).toBe(401);
    expect(locked.body.error.code).toBe("unauthorized");
    const page = await fetch(`${(await import("vitest")).inject("baseUrl")}/review/${token}`);
    const html = await page.text();
    expect(html).toContain("This review link is protected");
    expect(html).not.toContain(c.fileName);

    const started = Date.now();
    const wrong = await guest(`/api/review/${token}/password`, { method: "POST", json: { password: "nope nope" } });
    expect(wrong.status).toBe(401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(wrong.headers.get("set-cookie")).toBeNull();

    const right = await guest(`/api/review/${token}/password`, { method: "POST", json: { password: "open sesame" } });
    expect(right.status).toBe(200);
    const cookie = right.headers.get("set-cookie")!.split(";")[0]!;
    expect(cookie).toMatch(/^adloom_review_rvl_/);
    const open = await guest(`/api/review/${token}`, { headers: { cookie } });
    expect(open.status).toBe(200);
    expect(open.body.creatives.map((x: any) => x.id)).toEqual([c.creativeId]);
    // A pass for one link opens no other link.
    const other = await reviewLink(t.key, { creativeIds: [c.creativeId], password: "another one" });
    expect((await guest(`/api/review/${other.token}`, { headers: { cookie: cookie.replace(/^[^=]+/, `adloom_review_${other.id}`) } })).status).toBe(401);
    // A pass cookie that is not even well-formed percent-encoding is no pass: 401, not a server error.
    const mangled = await guest(`/api/review/${token}`, { headers: { cookie: `${cookie.split("=")[0]}=%E0%A4%A` } });
    expect([mangled.status, mangled.body.error.code]).toEqual([401, "unauthorized"]);
  });

  it("after 10 wrong passwords even the right one is refused for a while", async () => {
    const t = await createTenant();
    const c = await readyCreative(t.key);
    const { token } = await reviewLink(t.key, { creativeIds: [c.creativeId], password: "right password" });
    await Promise.all(Array.from({ length: 10 }, () => guest(`/api/review/${token}/password`, { method: "POST", json: { password: "wrong guess" } })));
    const right = await guest(`/api/review/${token}/password`, { method: "POST", json: { password: "right password" } });
    expect(right.status).toBe(401);
  }, 60_000);

  it("wrong, expired and revoked tokens answer exactly alike, and revocation stops media on the next request", async () => {
    const t = await createTenant();
    const c = await readyCreative(t.key);
    expect((await callTool(t.key, "create_review_link", { name: "past", creativeIds: [c.creativeId], expiresAt: "2020-01-01T00:00:00Z" })).status).toBe(400);
    const revoked = await reviewLink(t.key, { creativeIds: [c.creativeId] });
    // Long enough that its creation and first open land before it even on a busy machine (2.5 s left under a second each).
    const expiring = await reviewLink(t.key, { creativeIds: [c.creativeId], expiresAt: new Date(Date.now() + 6000).toISOString() });
    expect((await guest(`/api/review/${expiring.token}`)).status).toBe(200);
    const before = await guest(`/api/review/${revoked.token}`);
    const mediaUrl: string = before.body.creatives[0].mediaUrl;
    expect((await guest(mediaUrl)).status).toBe(200);

    await toolResult(t.key, "revoke_review_link", { id: revoked.id });
    expect((await guest(mediaUrl)).status).toBe(404);
    // The link expires 6 s after it was made: wait for the service to call it expired.
    const linkState = async () => (await toolResult(t.key, "list_review_links", {})).links.find((l: any) => l.id === expiring.id).state;
    await until(async () => (await linkState()) === "expired", "the expiring link to expire", 15_000);
    expect(await linkState()).toBe("expired");

    const wrongToken = `rvl_${"A".repeat(43)}`;
    const answers = await Promise.all([wrongToken, expiring.token, revoked.token, "not-a-token"].map(unavailable));
    for (const a of answers)
      expect(a).toEqual({
        apiStatus: 404,
        apiBody: { error: { code: "not_found", message: "Review link not found" } },
        pageStatus: 404,
        pageSaysUnavailable: true,
      });
  });
});

describe("guest writes", () => {
  it("refuse cross-site posts and what the link does not allow", async () => {
    const t = await createTenant();
    const c = await readyCreative(t.key);
    const viewOnly = await reviewLink(t.key, { creativeIds: [c.creativeId], permissions: { comment: false, decide: false } });
    const noComment = await guest(`/api/review/${viewOnly.token}/comments`, { method: "POST", json: { creativeId: c.creativeId, ...WHO, body: "hi" } });
    expect(noComment.status).toBe(403);
    const noDecision = await guest(`/api/review/${viewOnly.token}/decision`, {
      method: "POST",
      json: { creativeId: c.creativeId, ...WHO, decision: "approved" },
    });
    expect(noDecision.status).toBe(403);

    const open = await reviewLink(t.key, { creativeIds: [c.creativeId], permissions: { comment: true, decide: true } });
    const crossSite = await guest(`/api/review/${open.token}/comments`, {
      method: "POST",
      headers: { Origin: "https://evil.example" },
      json: { creativeId: c.creativeId, ...WHO, body: "hi" },
    });
    expect(crossSite.status).toBe(403);
    const nameless = await guest(`/api/review/${open.token}/comments`, { method: "POST", json: { creativeId: c.creativeId, name: " ", body: "hi" } });
    expect(nameless.status).toBe(400);
    const pinned = await guest(`/api/review/${open.token}/comments`, {
      method: "POST",
      json: { creativeId: c.creativeId, ...WHO, body: "Move the logo", pin: { x: 0.1, y: 0.9 } },
    });
    expect(pinned.status).toBe(201);
    expect(pinned.body.creative.threads).toEqual([
      expect.objectContaining({ body: "Move the logo", authorName: "Gina Guest", guest: true, pin: { x: 0.1, y: 0.9 } }),
    ]);
    const decided = await guest(`/api/review/${open.token}/decision`, {
      method: "POST",
      json: { creativeId: c.creativeId, ...WHO, decision: "changes_requested" },
    });
    expect(decided.body.creative.status).toBe("changes_requested");
    const history = await toolResult(t.key, "list_review_history", { creativeId: c.creativeId });
    expect(history.history[0]).toMatchObject({ status: "changes_requested", actorName: "Gina Guest", actorUserId: null, guest: true });
  });

  it("each link has its own rate limit", async () => {
    const t = await createTenant();
    const c = await readyCreative(t.key);
    const busy = await reviewLink(t.key, { creativeIds: [c.creativeId] });
    const calm = await reviewLink(t.key, { creativeIds: [c.creativeId] });
    let limited = 0;
    // Up to 1250 requests: even split across two one-minute windows, one of them passes 600.
    for (let i = 0; i < 1250 && !limited; i += 25) {
      const statuses = await Promise.all(
        Array.from({ length: 25 }, () => guest(`/api/review/${busy.token}/password`, { method: "POST", json: { password: "" } }).then((r) => r.status)),
      );
      limited += statuses.filter((s) => s === 429).length;
    }
    expect(limited).toBeGreaterThan(0);
    expect((await guest(`/api/review/${calm.token}`)).status).toBe(200);
  }, 120_000);
});

describe("dashboard-side isolation", () => {
  it("another workspace's key gets 404 for review data, links and comments", async () => {
    const t = await createTenant();
    const c = await readyCreative(t.key);
    const { threadId } = await toolResult(t.key, "add_comment", { creativeId: c.creativeId, body: "mine" });
    const other = await createTenant();
    for (const [name, args] of [
      ["list_comments", { creativeId: c.creativeId }],
      ["list_creative_versions", { creativeId: c.creativeId }],
      ["reply_to_comment", { commentId: threadId, body: "x" }],
      ["resolve_comment", { commentId: threadId }],
      ["list_review_history", { creativeId: c.creativeId }],
    ] as const) {
      expect((await callTool(other.key, name, args)).status, name).toBe(404);
    }
    expect((await api(other.key)(`/api/media/${c.creativeId}/versions/1`)).status).toBe(404);
  });
});
