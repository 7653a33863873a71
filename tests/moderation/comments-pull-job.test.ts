import "../jobs/helpers/isolated-env";
import { beforeAll, describe, expect, it } from "vitest";
import { commentsPull } from "@/inngest/functions/comments-pull";
import { getDb } from "@/lib/db/client";
import { getAdAccount } from "@/lib/platforms";
import { plantSandboxComments, sandboxClock } from "@/lib/platforms/sandbox/operator";
import { createWorkspace } from "@/lib/workspaces/workspaces";
import { migrateTestDatabase } from "../jobs/helpers/database";
import { finishedRuns } from "../jobs/helpers/wait";
import { clockedRunner } from "../jobs/helpers/clocked-runner";

// The scheduled function itself, run by the embedded runner on a controlled clock: one step per ad account.
let clock = new Date("2030-01-01T00:01:00Z");
const runner = () => clockedRunner([commentsPull], () => clock);

/** A workspace whose platform_a account holds `count` comments under a published ad of the workspace. */
async function workspaceWithComments(count: number) {
  const { workspaceId } = await createWorkspace({ name: `Job ${Math.random()}`, plan: "pro" });
  const account = (await getAdAccount(workspaceId, "platform_a"))!;
  const clock = await sandboxClock(account);
  const adExternalId = `7${Math.floor(Math.random() * 1e12)}`;
  await getDb().ad.create({
    data: {
      id: `ad_job${Math.floor(Math.random() * 1e9)}`,
      workspaceId,
      campaignId: "cmp_x",
      adSetId: "adset_x",
      platform: "platform_a",
      clientRef: `ref-${Math.random()}`,
      externalId: adExternalId,
      name: "Published",
      status: "paused",
      creativeId: "cre_x",
      callToAction: "shop_now",
      landingUrl: "https://example.com",
    },
  });
  await plantSandboxComments(
    account,
    Array.from({ length: count }, (_, i) => ({
      id: `${adExternalId}${String(i).padStart(4, "0")}`,
      adId: adExternalId,
      authorName: "Someone",
      message: `hello ${i}`,
      createdAt: new Date(clock.deliveredThrough.getTime() - 60_000 + i),
    })),
  );
  return { workspaceId };
}

beforeAll(migrateTestDatabase);

describe("the comments-pull job", () => {
  it("runs every five minutes, one step per ad account, and adds each comment once over runs", async () => {
    const a = await workspaceWithComments(3);
    const b = await workspaceWithComments(2);
    const first = runner();
    await first.start();
    clock = new Date("2030-01-01T00:05:10Z");
    first.wake();
    const [run] = await finishedRuns("comments-pull", 1, 20_000);
    expect(run!.status).toBe("completed");
    expect(run!.output).toEqual({ accounts: 2, added: 5 });
    clock = new Date("2030-01-01T00:10:10Z");
    first.wake();
    const runs = await finishedRuns("comments-pull", 2, 20_000);
    expect(runs.map((r) => r.output)).toContainEqual({ accounts: 2, added: 0 });
    await first.stop();
    expect(await getDb().adCommentItem.count({ where: { workspaceId: a.workspaceId } })).toBe(3);
    expect(await getDb().adCommentItem.count({ where: { workspaceId: b.workspaceId, adId: { not: null } } })).toBe(2);
  }, 60_000);
});
