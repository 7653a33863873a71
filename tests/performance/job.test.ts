/**
 * The hourly Inngest function itself, run by the embedded runner on a controlled clock (as
 * tests/jobs/cron.test.ts drives crons): one step per workspace and account, then one per
 * workspace; the next hour's run re-reads only the partial day and sends no event twice.
 */
import "../jobs/helpers/isolated-env";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_ID } from "@/inngest/client";
import { performanceRollup } from "@/inngest/functions/performance-rollup";
import { getDb } from "@/lib/db/client";
import type { EmbeddedRunner } from "@/lib/jobs/embedded";
import { listRuns } from "@/lib/jobs/runs";
import { setSandboxTimeZone } from "@/lib/platforms/sandbox/operator";
import { migrateTestDatabase } from "../jobs/helpers/database";
import { eventually, finishedRuns } from "../jobs/helpers/wait";
import { workspaceWith } from "./many-ads";
import { clockedRunner } from "../jobs/helpers/clocked-runner";

let clock = new Date("2030-01-01T00:01:10Z");
let runner: EmbeddedRunner;

beforeAll(async () => {
  await migrateTestDatabase();
  runner = clockedRunner([performanceRollup], () => clock);
});
afterAll(() => runner?.stop());

const events = (workspaceId: string) => getDb().webhookEvent.findMany({ where: { workspaceId, type: "creative.status_changed" } });

describe("performance-rollup (Inngest cron)", () => {
  it("rolls up every workspace's accounts at minute 5 of each hour, each change with exactly one event", async () => {
    const first = await workspaceWith(40, 24 * 10);
    const second = await workspaceWith(40, 24 * 10);
    const broken = await workspaceWith(8, 24);
    // A platform that answers nonsense for one account (a time zone no one knows): that account fails, the others go on.
    const brokenAccount = await getDb().adAccount.findFirstOrThrow({ where: { workspaceId: broken } });
    await setSandboxTimeZone(brokenAccount, "Nowhere/Atlantis");
    await runner.start();
    const schedule = await eventually(
      async () =>
        (await getDb().jobCronSchedule.findUnique({ where: { functionId_cron: { functionId: `${APP_ID}-performance-rollup`, cron: "5 * * * *" } } })) ??
        undefined,
      5000,
      "the schedule row",
    );
    expect(schedule.nextAt.toISOString()).toBe("2030-01-01T00:05:00.000Z");

    clock = new Date("2030-01-01T00:05:30Z");
    runner.wake();
    const [run] = await finishedRuns("performance-rollup", 1, 120_000);
    expect(run!.status).toBe("completed");
    expect(run!.output).toMatchObject({ workspaces: 3, failedAccounts: 1 });
    expect(await getDb().adDailyInsight.count({ where: { workspaceId: broken } })).toBe(0);
    for (const workspaceId of [first, second]) {
      expect(await getDb().performanceCursor.count({ where: { workspaceId } })).toBe(1);
      expect(await getDb().adDailyInsight.count({ where: { workspaceId } })).toBeGreaterThanOrEqual(40 * 10);
      expect(await getDb().creativePerformance.count({ where: { workspaceId } })).toBe(10);
    }
    const changes = await getDb().creativeLabelChange.findMany({ where: { workspaceId: first } });
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.every((c) => c.eventId)).toBe(true);
    expect((await events(first)).length).toBe(changes.length);

    // The next hour: the same state again (nothing moved on the platform), no new event.
    const insightsBefore = await getDb().adDailyInsight.count({ where: { workspaceId: first } });
    await setSandboxTimeZone(brokenAccount, "UTC");
    clock = new Date("2030-01-01T01:05:30Z");
    runner.wake();
    const runs = await finishedRuns("performance-rollup", 2, 120_000);
    expect(runs.every((r) => r.status === "completed")).toBe(true);
    expect(runs.find((r) => r.id !== run!.id)!.output).toMatchObject({ workspaces: 3, failedAccounts: 0 });
    expect(await getDb().adDailyInsight.count({ where: { workspaceId: broken } })).toBeGreaterThan(0); // the repaired account catches up
    expect(await getDb().adDailyInsight.count({ where: { workspaceId: first } })).toBe(insightsBefore);
    expect((await events(first)).length).toBe(changes.length);
    expect((await listRuns({ functionId: "performance-rollup" })).length).toBe(2);
  }, 300_000);
});
