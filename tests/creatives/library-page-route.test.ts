/**
 * GET /api/library: the Library grid's pages, which the dashboard fetches as its filters change. The signed-in
 * member's active workspace only, the filters as the page's URL holds them, clear errors in the envelope.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { admin } from "../helpers/fixtures";
import { allCreatives, finishedUpload, uploadIds, waitFor } from "../helpers/library";
import { pngImage } from "../helpers/media-fixtures";
import { toolResult } from "../tools/helpers";
import { sessionFetch, signIn } from "../dashboard/session";

const PASSWORD = "a long enough password";

/** A pro workspace whose owner can sign in, with an owner key. */
async function workspaceWithOwner(name: string): Promise<{ workspaceId: string; key: string; email: string }> {
  const email = `library-page-${Date.now()}-${process.pid}-${name.toLowerCase()}@example.com`;
  const { workspaceId, ownerUserId } = await admin<any>(["workspace", "create", "--name", name, "--plan", "pro", "--owner-email", email]);
  await admin(["user", "password", "--email", email, "--password", PASSWORD]);
  const { key } = await admin<any>(["key", "create", "--workspace", workspaceId, "--user", ownerUserId]);
  return { workspaceId, key, email };
}

async function uploadAll(key: string, names: string[]): Promise<void> {
  const files = await Promise.all(names.map(async (name, i) => ({ name, type: "image/png", bytes: await pngImage(40 + i, 30) })));
  for (const id of await uploadIds(key, files)) expect((await finishedUpload(key, id, 60_000)).status).toBe("completed");
  await waitFor("the creatives", async () => ((await allCreatives(key)).length >= names.length ? true : undefined), 60_000);
}

let own: Awaited<ReturnType<typeof workspaceWithOwner>>;
let other: Awaited<ReturnType<typeof workspaceWithOwner>>;
let get: ReturnType<typeof sessionFetch>;

beforeAll(async () => {
  [own, other] = await Promise.all([workspaceWithOwner("Own"), workspaceWithOwner("Other")]);
  await Promise.all([uploadAll(own.key, ["alpha-one.png", "alpha-two.png", "beta.png"]), uploadAll(other.key, ["alpha-elsewhere.png"])]);
  get = sessionFetch((await signIn(own.email, PASSWORD)).jar);
}, 240_000);

describe("GET /api/library", () => {
  it("answers the grid's page for the filters, with the count and each creative's folder, size and duplicate", async () => {
    const res = await get("/api/library?search=ALPHA&sort=name");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body.items.map((c: any) => c.fileName)).toEqual(["alpha-one.png", "alpha-two.png"]);
    expect(res.body).toMatchObject({ total: 2, nextCursor: null });
    expect(res.body.items[0]).toMatchObject({ folderId: null, sizeBytes: expect.any(Number), duplicateOf: null, kind: "image" });

    expect((await get("/api/library?sort=name&folder=root")).body.items.map((c: any) => c.fileName)).toEqual(["alpha-one.png", "alpha-two.png", "beta.png"]);
  });

  it("continues from a cursor (a later page carries no count)", async () => {
    const first = await toolResult(own.key, "list_creatives", { sort: "name", limit: 1 });
    const rest = await get(`/api/library?sort=name&cursor=${encodeURIComponent(first.nextCursor)}`);
    expect(rest.status).toBe(200);
    expect(rest.body.items.map((c: any) => c.fileName)).toEqual(["alpha-two.png", "beta.png"]);
    expect(rest.body.total).toBeNull();
  });

  it("shows only the active workspace's creatives", async () => {
    const names = (await get("/api/library?search=alpha")).body.items.map((c: any) => c.fileName);
    expect(names).not.toContain("alpha-elsewhere.png");
    const [elsewhere] = await allCreatives(other.key);
    const { folder } = await toolResult(other.key, "create_folder", { name: "Theirs" });
    await toolResult(other.key, "move_creatives", { ids: [elsewhere.id], folderId: folder.id });
    // Another workspace's folder holds nothing this member can see (as list_creatives answers).
    const theirFolder = await get(`/api/library?folder=${folder.id}`);
    expect(theirFolder.status).toBe(200);
    expect(theirFolder.body).toEqual({ items: [], nextCursor: null, total: 0 });
    expect((await toolResult(own.key, "list_creatives", { folderId: folder.id })).creatives).toEqual([]);
  });

  it("refuses a malformed query with 400 and a signed-out request with 401, in the error envelope", async () => {
    for (const query of ["kind=gif", "createdAfter=yesterday", "color=red", `search=${"x".repeat(201)}`]) {
      const res = await get(`/api/library?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code, query).toBe("invalid_request");
      expect(res.body.error.message, query).toMatch(/^Invalid library query: /);
    }
    const signedOut = await sessionFetch(new Map())("/api/library");
    expect(signedOut.status).toBe(401);
    expect(signedOut.body.error.code).toBe("unauthorized");
  });
});
