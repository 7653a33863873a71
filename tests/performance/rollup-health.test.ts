/**
 * The rollup's health per ad account, as list_creative_performance reports it: the domain
 * functions the hourly job runs against a real database and the sandbox platform, the tool called
 * the way every surface calls it. A platform answering nonsense for an account (a time zone no one
 * knows, as tests/performance/job.test.ts drives it) makes that account's pull fail.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useFreshDatabase } from "../helpers/in-process-db";

let db: ReturnType<typeof import("@/lib/db/client").getDb>;

beforeAll(async () => {
  await useFreshDatabase("rollup_health");
  db = (await import("@/lib/db/client")).getDb();
});
afterAll(async () => (await import("@/lib/services")).disposeServices());

async function workspace(ads: number) {
  const { workspaceWith } = await import("./many-ads");
  const { principalForUser } = await import("@/lib/session/principal");
  const workspaceId = await workspaceWith(ads, 24 * 3);
  const owner = await db.membership.findFirstOrThrow({ where: { workspaceId, role: "owner" } });
  const principal = (await principalForUser(owner.userId, workspaceId))!;
  const account = await db.adAccount.findFirstOrThrow({ where: { workspaceId, platform: "platform_a" } });
  const { setSandboxTimeZone } = await import("@/lib/platforms/sandbox/operator");
  const setTimeZone = (timeZone: string) => setSandboxTimeZone(account, timeZone);
  return { workspaceId, principal, setTimeZone };
}

async function rollupOf(principal: Awaited<ReturnType<typeof workspace>>["principal"]) {
  const { callTool } = await import("@/lib/tools/call");
  const outcome = await callTool(principal, "list_creative_performance", {});
  if (!outcome.ok) throw new Error(outcome.body.error.message);
  return (
    outcome.body.result as {
      rollup: {
        figuresAsOf: string | null;
        figuresTimeZone: string | null;
        accounts: { platform: string; lastRunAt: string; lastSuccessAt: string | null; lastError: string | null; timeZone: string | null }[];
      };
    }
  ).rollup;
}

const run = async (workspaceId: string) => (await import("@/lib/performance/rollup")).runRollup({ workspaceId });

describe("rollup health in list_creative_performance", () => {
  it("reports each account's last run, its last success and the error of a failed run, until a run succeeds again", async () => {
    const { workspaceId, principal, setTimeZone } = await workspace(8);
    expect(await rollupOf(principal)).toEqual({ figuresAsOf: null, figuresTimeZone: null, accounts: [] });

    await setTimeZone("Europe/Berlin");
    await run(workspaceId);
    const ok = await rollupOf(principal);
    expect(ok.accounts).toEqual([
      { platform: "platform_a", lastRunAt: expect.any(String), lastSuccessAt: ok.accounts[0]!.lastRunAt, lastError: null, timeZone: "Europe/Berlin" },
    ]);
    expect(ok.figuresAsOf).toBe(ok.accounts[0]!.lastSuccessAt);
    // "Figures as of" is read on the clock of the account the figures came from.
    expect(ok.figuresTimeZone).toBe("Europe/Berlin");

    await setTimeZone("Nowhere/Atlantis");
    const outcome = await run(workspaceId);
    expect(outcome.accounts).toMatchObject([{ ok: false }]);
    const failed = await rollupOf(principal);
    expect(failed.accounts).toHaveLength(1);
    expect(failed.accounts[0]!.lastError).toBe((outcome.accounts[0] as { error: string }).error);
    expect(failed.accounts[0]!.lastError).toMatch(/\S/);
    expect(failed.accounts[0]!.lastSuccessAt).toBe(ok.accounts[0]!.lastSuccessAt);
    expect(Date.parse(failed.accounts[0]!.lastRunAt)).toBeGreaterThan(Date.parse(ok.accounts[0]!.lastRunAt));
    // The stored figures are still those of the last successful pull.
    expect(failed.figuresAsOf).toBe(ok.figuresAsOf);

    await setTimeZone("UTC");
    await run(workspaceId);
    const repaired = await rollupOf(principal);
    expect(repaired.accounts[0]!.lastError).toBeNull();
    expect(repaired.figuresTimeZone).toBe("UTC");
    expect(Date.parse(repaired.figuresAsOf!)).toBeGreaterThan(Date.parse(ok.figuresAsOf!));
  }, 120_000);

  it("reports an account whose very first pull failed (no cursor yet), and only the workspace's own accounts", async () => {
    const healthy = await workspace(4);
    await run(healthy.workspaceId);
    const broken = await workspace(4);
    await broken.setTimeZone("Nowhere/Atlantis");
    await run(broken.workspaceId);

    expect(await db.performanceCursor.count({ where: { workspaceId: broken.workspaceId } })).toBe(0);
    const rollup = await rollupOf(broken.principal);
    expect(rollup.figuresAsOf).toBeNull();
    expect(rollup.figuresTimeZone).toBeNull();
    expect(rollup.accounts).toEqual([
      { platform: "platform_a", lastRunAt: expect.any(String), lastSuccessAt: null, lastError: expect.stringMatching(/\S/), timeZone: null },
    ]);
    expect((await rollupOf(healthy.principal)).accounts).toMatchObject([{ platform: "platform_a", lastError: null }]);
  }, 120_000);
});
