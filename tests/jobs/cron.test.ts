import "./helpers/isolated-env";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_ID, inngest } from "@/inngest/client";
import { getDb } from "@/lib/db/client";
import { startEmbeddedRunner, stopEmbeddedRunner } from "@/lib/jobs/embedded";
import { listRuns } from "@/lib/jobs/runs";
import { migrateTestDatabase } from "./helpers/database";
import { eventually, finishedRuns } from "./helpers/wait";
import { clockedRunner } from "./helpers/clocked-runner";

let clock = new Date("2030-01-01T00:01:10Z");
const every5 = inngest.createFunction({ id: "test-cron", triggers: [{ cron: "*/5 * * * *" }] }, async ({ event, step }) =>
  step.run("fire", () => ({ cron: (event.data as { cron?: string }).cron, at: new Date(event.ts!).toISOString() })),
);
const newRunner = () => clockedRunner([every5], () => clock);

const schedule = () => getDb().jobCronSchedule.findUnique({ where: { functionId_cron: { functionId: `${APP_ID}-test-cron`, cron: "*/5 * * * *" } } });

beforeAll(migrateTestDatabase);
afterAll(stopEmbeddedRunner);

describe("cron triggers", () => {
  it("fire once per fire time, also across restarts", async () => {
    const first = newRunner();
    await first.start();
    const row = await eventually(async () => (await schedule()) ?? undefined, 5000, "the schedule row");
    expect(row.nextAt.toISOString()).toBe("2030-01-01T00:05:00.000Z");
    expect(await listRuns({ functionId: "test-cron" })).toEqual([]);

    clock = new Date("2030-01-01T00:05:30Z");
    first.wake();
    const [run] = await finishedRuns("test-cron", 1, 5000);
    expect(run!.output).toEqual({ cron: "*/5 * * * *", at: "2030-01-01T00:05:00.000Z" });
    expect(run!.event).toMatchObject({ name: "inngest/scheduled.timer" });
    await first.stop();

    // As if the process died after starting the run but before advancing the schedule.
    await getDb().jobCronSchedule.update({
      where: { functionId_cron: { functionId: `${APP_ID}-test-cron`, cron: "*/5 * * * *" } },
      data: { nextAt: new Date("2030-01-01T00:05:00Z") },
    });
    const second = newRunner();
    await second.start();
    await eventually(async () => (await schedule())?.nextAt.toISOString() === "2030-01-01T00:10:00.000Z", 5000, "the schedule to advance");
    expect((await listRuns({ functionId: "test-cron" })).length).toBe(1);

    clock = new Date("2030-01-01T00:10:00Z");
    second.wake();
    const runs = await finishedRuns("test-cron", 2, 5000);
    expect(runs.map((r) => (r.output as { at: string }).at).sort()).toEqual(["2030-01-01T00:05:00.000Z", "2030-01-01T00:10:00.000Z"]);
    await second.stop();
  });

  it("startEmbeddedRunner wires the app's functions once per process", async () => {
    const { appJobs } = await import("@/inngest/serve");
    await Promise.all([startEmbeddedRunner(appJobs), startEmbeddedRunner(appJobs)]);
    await startEmbeddedRunner(appJobs);
    const rows = await eventually(
      async () => {
        const found = await getDb().jobCronSchedule.findMany({ where: { functionId: `${APP_ID}-purge-job-history` } });
        return found.length ? found : undefined;
      },
      5000,
      "the purge schedule",
    );
    expect(rows.map((r) => r.cron)).toEqual(["17 3 * * *"]);
    expect(rows[0]!.nextAt.getUTCHours()).toBe(3);
    await stopEmbeddedRunner();
    await stopEmbeddedRunner();
  });
});
