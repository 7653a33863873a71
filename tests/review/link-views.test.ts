/**
 * review.link_viewed at most once per 6 hours per link, driven in-process with a controlled
 * clock (recordLinkView takes `now`) against a real database.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { useFreshDatabase } from "../helpers/in-process-db";

type Views = typeof import("@/lib/review/link-views");
let views: Views;
let db: ReturnType<typeof import("@/lib/db/client").getDb>;
let workspaceId: string;

beforeAll(async () => {
  await useFreshDatabase("review_link_views");
  views = await import("@/lib/review/link-views");
  db = (await import("@/lib/db/client")).getDb();
  const { createWorkspace } = await import("@/lib/workspaces/workspaces");
  workspaceId = (await createWorkspace({ name: "Views", plan: "pro" })).workspaceId;
});

let n = 0;
async function link() {
  return db.reviewLink.create({ data: { id: `rvl_views${++n}`, workspaceId, createdById: "usr_x", name: `Batch ${n}`, tokenHash: `hash-${n}-${Date.now()}` } });
}
const viewEvents = (linkId: string) =>
  db.webhookEvent.findMany({ where: { workspaceId, type: "review.link_viewed", dedupeKey: { contains: linkId } }, orderBy: { createdAt: "asc" } });

const HOUR = 3_600_000;

describe("review.link_viewed", () => {
  it("is emitted on the first view, not again within 6 hours, and again once 6 hours have passed", async () => {
    const l = await link();
    const t0 = new Date("2026-03-01T08:00:00Z");
    expect(await views.recordLinkView(l, t0)).toEqual({ emitted: true });
    expect(await views.recordLinkView(l, new Date(t0.getTime() + 1000))).toEqual({ emitted: false });
    expect(await views.recordLinkView(l, new Date(t0.getTime() + 5 * HOUR))).toEqual({ emitted: false });
    expect(await views.recordLinkView(l, new Date(t0.getTime() + 6 * HOUR - 1))).toEqual({ emitted: false });
    expect(await views.recordLinkView(l, new Date(t0.getTime() + 6 * HOUR))).toEqual({ emitted: true });
    expect(await views.recordLinkView(l, new Date(t0.getTime() + 7 * HOUR))).toEqual({ emitted: false });
    expect(await views.recordLinkView(l, new Date(t0.getTime() + 12 * HOUR + 1))).toEqual({ emitted: true });

    const events = await viewEvents(l.id);
    expect(events).toHaveLength(3);
    expect(JSON.parse(events[0]!.body).data).toEqual({ link: { linkId: l.id, subject: l.name } });
  });

  it("counts per link: another link's view is its own", async () => {
    const a = await link();
    const b = await link();
    const t = new Date("2026-03-02T08:00:00Z");
    expect((await views.recordLinkView(a, t)).emitted).toBe(true);
    expect((await views.recordLinkView(b, new Date(t.getTime() + 60_000))).emitted).toBe(true);
    expect((await views.recordLinkView(a, new Date(t.getTime() + 120_000))).emitted).toBe(false);
  });

  it("emits once when many guests open the link at the same moment", async () => {
    const l = await link();
    const t = new Date("2026-03-03T08:00:00Z");
    const results = await Promise.all(Array.from({ length: 8 }, () => views.recordLinkView(l, t)));
    expect(results.filter((r) => r.emitted)).toHaveLength(1);
    expect(await viewEvents(l.id)).toHaveLength(1);
  });
});
