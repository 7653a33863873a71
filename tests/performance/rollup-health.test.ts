/**
 * The rollup's health per ad account, as list_creative_performance reports it: the domain
 * functions the hourly job runs against a real database and the sandbox platform, the tool called
 * the way every surface calls it. A platform answering nonsense for an account (a time zone no one
 * knows, as tests/performance/job.test.ts drives it) makes that account's pull fail. Then money when the
 * workspace's accounts have different currencies (two platforms', or two of one platform): what is bound to one
 * account is in that account's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useFreshDatabase } from "../helpers/in-process-db";

let db: ReturnType<typeof import("@/lib/db/client").getDb>;

beforeAll(async () => {
  await useFreshDatabase("rollup_health");
  db = (await import("@/lib/db/client")).getDb();
});
afterAll(async () => (await import("@/lib/services")).disposeServices());

async function ownerOf(workspaceId: string) {
  const { principalForUser } = await import("@/lib/session/principal");
  const owner = await db.membership.findFirstOrThrow({ where: { workspaceId, role: "owner" } });
  return (await principalForUser(owner.userId, workspaceId))!;
}

async function workspace(ads: number) {
  const { workspaceWith } = await import("./many-ads");
  const workspaceId = await workspaceWith(ads, 24 * 3);
  const principal = await ownerOf(workspaceId);
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
        accounts: {
          adAccountId: string;
          platform: string;
          name: string;
          isDefault: boolean;
          currency: string;
          timeZone: string | null;
          today: string | null;
          lastRunAt: string;
          lastSuccessAt: string | null;
          lastError: string | null;
        }[];
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
    const account = await db.adAccount.findFirstOrThrow({ where: { workspaceId, platform: "platform_a" } });
    const cursor = await db.performanceAccountCursor.findUniqueOrThrow({ where: { adAccountId: account.id } });
    expect(ok.accounts).toEqual([
      {
        adAccountId: account.id,
        platform: "platform_a",
        name: account.name ?? account.externalAccountId,
        isDefault: true,
        currency: "USD",
        timeZone: "Europe/Berlin",
        today: cursor.today,
        lastRunAt: expect.any(String),
        lastSuccessAt: ok.accounts[0]!.lastRunAt,
        lastError: null,
      },
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
      expect.objectContaining({
        platform: "platform_a",
        isDefault: true,
        lastSuccessAt: null,
        lastError: expect.stringMatching(/\S/),
        timeZone: null,
        today: null,
      }),
    ]);
    expect((await rollupOf(healthy.principal)).accounts).toMatchObject([{ platform: "platform_a", lastError: null }]);
  }, 120_000);
  it("reports each of a platform's accounts on its own: one not connected or refused is named, the others stored, figuresAsOf the oldest read", async () => {
    const { createWorkspace } = await import("@/lib/workspaces/workspaces");
    const { plantActiveAds } = await import("./many-ads");
    const { getAdAccount } = await import("@/lib/platforms");
    const { markNeedsReconnect } = await import("@/lib/platforms/accounts");
    const { localDayHour } = await import("@/lib/platforms/local-time");
    const { advanceSandbox, advanceSandboxAccount, sandboxClock, setSandboxCurrency, setSandboxTimeZone } = await import("@/lib/platforms/sandbox/operator");
    const { workspaceId } = await createWorkspace({ name: "Two Meta accounts, one of them refused", plan: "pro" });
    // The default Meta account in dollars in New York; a second one in euros in Berlin, with ads of its own.
    const main = (await getAdAccount(workspaceId, "platform_a"))!;
    await plantActiveAds(workspaceId, "platform_a", 4);
    await setSandboxTimeZone(main, "America/New_York");
    const berlin = await db.adAccount.create({
      data: { id: `adacct_eur_${Date.now()}`, workspaceId, platform: "platform_a", mode: "sandbox", externalAccountId: `act_${Date.now()}7`, name: "Berlin" },
    });
    await plantActiveAds(workspaceId, "platform_a", 4, { account: berlin });
    await setSandboxTimeZone(berlin, "Europe/Berlin");
    await setSandboxCurrency(berlin, "EUR");
    const hours = async (n: number) => {
      await advanceSandbox(workspaceId, n);
      await advanceSandboxAccount(berlin, n);
    };
    // The checks compare an account's newest stored day with its today, which has a delivered hour only once its first
    // hour is over: start clear of midnight in both zones (the clock then moves by whole days). In the hour after
    // Berlin's midnight, 23:00 UTC, the last check failed (a CI run's unit phase).
    const startedAt = (await sandboxClock(main)).simulatedNow.getTime();
    const pastMidnight = [0, 1, 2].find((h) =>
      ["America/New_York", "Europe/Berlin"].every((zone) => localDayHour(startedAt + h * 3_600_000, zone).hour !== 0),
    )!;
    await hours(24 + pastMidnight);
    await run(workspaceId);
    const principal = await ownerOf(workspaceId);
    const both = await rollupOf(principal);
    expect(both.accounts.map((a) => [a.adAccountId, a.isDefault, a.currency, a.timeZone, a.lastError])).toEqual([
      [main.id, true, "USD", "America/New_York", null],
      [berlin.id, false, "EUR", "Europe/Berlin", null],
    ]);
    expect(both.accounts[1]).toMatchObject({ name: "Berlin", platform: "platform_a", lastSuccessAt: expect.any(String) });
    const berlinRead = both.accounts[1]!.lastSuccessAt!;
    /** The newest day stored from the account's campaign. */
    const lastDay = async (account: { externalAccountId: string }) =>
      (await db.adDailyInsight.findFirst({ where: { workspaceId, campaignId: `camp_${account.externalAccountId}` }, orderBy: { date: "desc" } }))?.date;

    // The Berlin account's token is revoked: the pull leaves it out (nothing can be read from it), and says so.
    expect(await markNeedsReconnect(berlin.id, "the platform refused its access token")).toBe(true);
    await hours(24);
    await run(workspaceId);
    const leftOut = await rollupOf(principal);
    const [mainNow, berlinNow] = leftOut.accounts;
    expect(mainNow).toMatchObject({ adAccountId: main.id, lastError: null });
    expect(Date.parse(mainNow!.lastSuccessAt!)).toBeGreaterThan(Date.parse(berlinRead));
    expect(berlinNow).toMatchObject({ adAccountId: berlin.id, lastSuccessAt: berlinRead, lastError: expect.stringContaining("needs to be reconnected") });
    expect(Date.parse(berlinNow!.lastRunAt)).toBeGreaterThan(Date.parse(berlinRead));
    // The figures are as old as the stalest account's: the Berlin account's last read, on its clock.
    expect(leftOut).toMatchObject({ figuresAsOf: berlinRead, figuresTimeZone: "Europe/Berlin" });
    // The default account's figures moved on all the same.
    expect(await lastDay(main)).toBe(mainNow!.today);

    // Connected again, the platform refuses to read it (a time zone no one knows): its refusal, the default still stored.
    await db.adAccount.update({ where: { id: berlin.id }, data: { status: "active", statusReason: null } });
    await hours(24);
    await setSandboxTimeZone(berlin, "Nowhere/Atlantis");
    const outcome = await run(workspaceId);
    expect(outcome.accounts).toMatchObject([{ ok: true, platform: "platform_a" }]);
    const refused = await rollupOf(principal);
    expect(refused.accounts[0]).toMatchObject({ adAccountId: main.id, lastError: null });
    expect(Date.parse(refused.accounts[0]!.lastSuccessAt!)).toBeGreaterThan(Date.parse(mainNow!.lastSuccessAt!));
    expect(refused.accounts[1]).toMatchObject({ adAccountId: berlin.id, lastSuccessAt: berlinRead, lastError: expect.stringMatching(/\S/) });
    expect(refused.accounts[1]!.lastError).not.toContain("reconnected");
    expect(refused.figuresAsOf).toBe(berlinRead);
    expect(await lastDay(main)).toBe(refused.accounts[0]!.today);

    // Read again: every account current, figuresAsOf the older of the two reads of this run.
    await setSandboxTimeZone(berlin, "Europe/Berlin");
    await run(workspaceId);
    const repaired = await rollupOf(principal);
    expect(repaired.accounts.map((a) => a.lastError)).toEqual([null, null]);
    expect(repaired.figuresAsOf).toBe([repaired.accounts[0]!.lastSuccessAt!, repaired.accounts[1]!.lastSuccessAt!].sort()[0]);
    expect(await lastDay(berlin)).toBe(repaired.accounts[1]!.today);
  }, 120_000);
});

describe("each ad account read over its own days", () => {
  it("reads an account west of its platform's default to the end of its day, one east of it up to its own today", async () => {
    const { createWorkspace } = await import("@/lib/workspaces/workspaces");
    const { plantActiveAds } = await import("./many-ads");
    const { adapterFor, getAdAccount } = await import("@/lib/platforms");
    const { localDayHour } = await import("@/lib/platforms/local-time");
    const { advanceSandbox, advanceSandboxAccount, sandboxClock, setSandboxTimeZone } = await import("@/lib/platforms/sandbox/operator");
    const { queryRows } = await import("@/lib/db/client");
    const { callTool } = await import("@/lib/tools/call");
    const { workspaceId } = await createWorkspace({ name: "New York, Los Angeles and Berlin", plan: "pro" });
    // Three Meta accounts: the default in New York, others in Los Angeles (3 hours behind) and Berlin (6 hours ahead).
    const newYork = (await getAdAccount(workspaceId, "platform_a"))!;
    await plantActiveAds(workspaceId, "platform_a", 4);
    await setSandboxTimeZone(newYork, "America/New_York");
    const another = async (name: string, timeZone: string) => {
      const account = await db.adAccount.create({
        data: {
          id: `adacct_${name}_${Date.now()}`,
          workspaceId,
          platform: "platform_a",
          mode: "sandbox",
          externalAccountId: `act_${Date.now()}${name.length}`,
        },
      });
      await plantActiveAds(workspaceId, "platform_a", 4, { account });
      await setSandboxTimeZone(account, timeZone);
      return account;
    };
    const losAngeles = await another("la", "America/Los_Angeles");
    const berlin = await another("berlin", "Europe/Berlin");
    /** The accounts' clocks move together (one simulated time), delivering the hours passed. */
    const advance = async (hours: number) => {
      await advanceSandbox(workspaceId, hours);
      for (const account of [losAngeles, berlin]) await advanceSandboxAccount(account, hours);
    };
    const clock = async () => (await sandboxClock(newYork)).simulatedNow.getTime();
    const dayIn = (ms: number, timeZone: string) => localDayHour(ms, timeZone).date;
    /** What the platform reports the account spent on the day, and what the rollup stored of it (minor units). */
    const platformSpend = async (account: typeof newYork, date: string) =>
      (await adapterFor(account).getDailyInsights(account, { since: date, until: date })).reduce((sum, r) => sum + r.spendMinor, 0);
    const storedSpend = async (account: typeof newYork, date: string) => {
      const [row] = await queryRows<{ spend: number }>(
        `SELECT coalesce(sum(i."spendMinor"), 0)::float8 AS spend FROM ad_daily_insights i JOIN ads a ON a.id = i."adId"
          WHERE i."workspaceId" = $1 AND i.date = $2 AND a."externalId" LIKE $3`,
        [workspaceId, date, `${account.externalAccountId}-%`],
      );
      return Number(row!.spend);
    };

    // Delivery up to 01:xx in New York: Los Angeles is still at 22:xx of the day before.
    const start = await clock();
    await advance(Array.from({ length: 24 }, (_, h) => 1 + h).find((h) => localDayHour(start + h * 3_600_000, "America/New_York").hour === 1)!);
    const day = dayIn(await clock(), "America/Los_Angeles");
    expect(dayIn(await clock(), "America/New_York") > day).toBe(true);
    await run(workspaceId);
    const westAtFirstPull = await platformSpend(losAngeles, day);
    // Six hours later Los Angeles' day is over (its last hours spent after the first pull), and is read whole.
    await advance(6);
    expect((await run(workspaceId)).accounts).toMatchObject([{ ok: true, platform: "platform_a" }]);
    const west = await platformSpend(losAngeles, day);
    expect(west).toBeGreaterThan(westAtFirstPull);
    expect(await storedSpend(losAngeles, day)).toBe(west);
    expect(await storedSpend(newYork, day)).toBe(await platformSpend(newYork, day));
    // Each account's cursor is in its own days.
    expect(await db.performanceAccountCursor.findUnique({ where: { adAccountId: losAngeles.id } })).toMatchObject({
      today: dayIn(await clock(), "America/Los_Angeles"),
      timeZone: "America/Los_Angeles",
    });

    // 20:xx in New York: Berlin is at 02:xx of the next day, which is read now, not once New York gets there.
    await advance(13);
    const east = dayIn(await clock(), "Europe/Berlin");
    expect(east > dayIn(await clock(), "America/New_York")).toBe(true);
    await run(workspaceId);
    expect(await platformSpend(berlin, east)).toBeGreaterThan(0);
    expect(await storedSpend(berlin, east)).toBe(await platformSpend(berlin, east));
    // get_insights' days run to the most advanced account's today: Berlin's.
    const outcome = await callTool(await ownerOf(workspaceId), "get_insights", { level: "ad_set", ids: [`adset_${berlin.externalAccountId}_0`] });
    if (!outcome.ok) throw new Error(outcome.body.error.message);
    expect(outcome.body.result).toMatchObject({ until: east });
    // The rollup's health names each account's own zone and today; the figures, read together, are shown on the default's clock.
    const health = await rollupOf(await ownerOf(workspaceId));
    const nowMs = await clock();
    expect(health.accounts.map((a) => [a.adAccountId, a.lastError, a.timeZone, a.today])).toEqual([
      [newYork.id, null, "America/New_York", dayIn(nowMs, "America/New_York")],
      ...[losAngeles, berlin]
        .sort((a, b) => a.externalAccountId.localeCompare(b.externalAccountId))
        .map((a) => [a.id, null, a === berlin ? "Europe/Berlin" : "America/Los_Angeles", a === berlin ? east : dayIn(nowMs, "America/Los_Angeles")]),
    ]);
    expect(health.figuresTimeZone).toBe("America/New_York");
  }, 120_000);
});

describe("money in each ad account's currency", () => {
  it("reads a creative test's and each ad set's and creative's insights in their own account's currency when the two accounts' differ", async () => {
    const { createWorkspace } = await import("@/lib/workspaces/workspaces");
    const { plantActiveAds } = await import("./many-ads");
    const { getAdAccount } = await import("@/lib/platforms");
    const { advanceSandbox, setSandboxCurrency, setSandboxTimeZone } = await import("@/lib/platforms/sandbox/operator");
    const { queryRows } = await import("@/lib/db/client");
    const { callTool } = await import("@/lib/tools/call");
    const { workspaceId } = await createWorkspace({ name: "Yen and dollars", plan: "pro" });
    // Creatives cre_yd_0 and cre_yd_1 have ads on both platforms.
    await plantActiveAds(workspaceId, "platform_a", 8, { creativePrefix: "cre_yd_" });
    await plantActiveAds(workspaceId, "platform_b", 8, { creativePrefix: "cre_yd_" });
    const meta = (await getAdAccount(workspaceId, "platform_a"))!;
    const tiktok = (await getAdAccount(workspaceId, "platform_b"))!;
    // The Meta account in yen (no minor unit), the TikTok one in dollars, a day ahead: its cursor has the latest today.
    await setSandboxCurrency(meta, "JPY");
    await setSandboxTimeZone(meta, "Pacific/Honolulu");
    await setSandboxTimeZone(tiktok, "Pacific/Kiritimati");
    const principal = await ownerOf(workspaceId);
    const call = async (name: string, input: Record<string, unknown>): Promise<any> => {
      const outcome = await callTool(principal, name, input);
      if (!outcome.ok) throw new Error(outcome.body.error.message);
      return outcome.body.result;
    };
    const yenAdSet = `adset_${meta.externalAccountId}_0`;
    const dollarAdSet = `adset_${tiktok.externalAccountId}_0`;
    const { test } = await call("create_creative_test", {
      name: "In yen",
      adSetId: yenAdSet,
      metric: "cpa",
      creativeIds: ["cre_yd_0", "cre_yd_1"],
      minSample: 100_000_000,
      maxDays: 30,
    });
    await advanceSandbox(workspaceId, 48);
    await run(workspaceId);

    /** What the rollup stored, in minor units, per platform, ad set and creative. */
    const stored = await queryRows<{ platform: string; adSetId: string; creativeId: string; date: string; spend: number; conversions: number }>(
      `SELECT platform::text AS platform, "adSetId", "creativeId", date, sum("spendMinor")::float8 AS spend, sum(conversions)::float8 AS conversions
         FROM ad_daily_insights WHERE "workspaceId" = $1 GROUP BY 1, 2, 3, 4`,
      [workspaceId],
    );
    const minor = (match: (r: (typeof stored)[number]) => boolean) => stored.filter(match).reduce((sum, r) => sum + Number(r.spend), 0);
    expect(minor((r) => r.platform === "platform_a")).toBeGreaterThan(0);
    expect(minor((r) => r.platform === "platform_b")).toBeGreaterThan(0);

    // The test runs on the yen account's ad set: its spend and CPA are yen, whole units.
    const { progress } = (await call("get_creative_test", { id: test.id })).test;
    expect(progress.currency).toBe("JPY");
    for (const v of progress.variants) {
      const ofVariant = (r: (typeof stored)[number]) => r.adSetId === yenAdSet && r.creativeId === v.creativeId && r.date >= test.startDate;
      const spend = minor(ofVariant);
      expect(spend).toBeGreaterThan(0);
      expect(v.spend).toBe(spend);
      if (v.conversions) expect(v.value).toBeCloseTo(spend / v.conversions, 6);
    }

    // Insights: each ad set in its account's currency; the answer names no single currency for the two.
    const adSets = await call("get_insights", { level: "ad_set", ids: [yenAdSet, dollarAdSet] });
    expect(adSets.currency).toBeNull();
    expect(adSets.rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: yenAdSet, platform: "platform_a", currency: "JPY", spend: minor((r) => r.adSetId === yenAdSet) }),
        expect.objectContaining({ id: dollarAdSet, platform: "platform_b", currency: "USD", spend: minor((r) => r.adSetId === dollarAdSet) / 100 }),
      ]),
    );
    expect(adSets.rows).toHaveLength(2);
    // A creative with ads on both accounts: a row per account, never one sum of yen and cents.
    const creatives = await call("get_insights", { level: "creative" });
    expect(creatives.currency).toBeNull();
    expect(creatives.rows.filter((r: any) => r.id === "cre_yd_0")).toEqual([
      expect.objectContaining({ platform: "platform_a", currency: "JPY", spend: minor((r) => r.platform === "platform_a" && r.creativeId === "cre_yd_0") }),
      expect.objectContaining({
        platform: "platform_b",
        currency: "USD",
        spend: minor((r) => r.platform === "platform_b" && r.creativeId === "cre_yd_0") / 100,
      }),
    ]);
    // One account alone: its currency names the whole answer.
    expect((await call("get_insights", { level: "ad_set", ids: [yenAdSet] })).currency).toBe("JPY");
  }, 120_000);
});

describe("the Ads page's results per ad account", () => {
  it("answers each of a platform's accounts in its own currency over its own days, never one sum of yen and dollars", async () => {
    const { createWorkspace } = await import("@/lib/workspaces/workspaces");
    const { plantActiveAds } = await import("./many-ads");
    const { getAdAccount } = await import("@/lib/platforms");
    const { advanceSandbox, advanceSandboxAccount, setSandboxCurrency, setSandboxTimeZone } = await import("@/lib/platforms/sandbox/operator");
    const { queryRows } = await import("@/lib/db/client");
    const { adsResults } = await import("@/lib/read-models/ads-results");
    const { workspaceId } = await createWorkspace({ name: "Two Meta accounts, yen and dollars", plan: "pro" });
    // The default Meta account in yen in Honolulu; another Meta account in dollars in Kiritimati, a calendar day ahead.
    const yen = (await getAdAccount(workspaceId, "platform_a"))!;
    await plantActiveAds(workspaceId, "platform_a", 4);
    await setSandboxCurrency(yen, "JPY");
    await setSandboxTimeZone(yen, "Pacific/Honolulu");
    const dollars = await db.adAccount.create({
      data: { id: `adacct_usd_${Date.now()}`, workspaceId, platform: "platform_a", mode: "sandbox", externalAccountId: `act_${Date.now()}9` },
    });
    await plantActiveAds(workspaceId, "platform_a", 4, { account: dollars });
    await setSandboxTimeZone(dollars, "Pacific/Kiritimati");
    await advanceSandbox(workspaceId, 48);
    await advanceSandboxAccount(dollars, 48);
    await run(workspaceId);

    const cursorOf = async (adAccountId: string) => (await db.performanceAccountCursor.findUniqueOrThrow({ where: { adAccountId } })).today;
    const [yenToday, dollarToday] = [await cursorOf(yen.id), await cursorOf(dollars.id)];
    expect(dollarToday > yenToday).toBe(true);
    /** What the rollup stored for the account's campaign over the range, in minor units. */
    const stored = async (account: { externalAccountId: string }, since: string, until: string) => {
      const [row] = await queryRows<{ impressions: number; spend: number }>(
        `SELECT coalesce(sum(impressions), 0)::float8 AS impressions, coalesce(sum("spendMinor"), 0)::float8 AS spend
           FROM ad_daily_insights WHERE "workspaceId" = $1 AND "campaignId" = $2 AND date BETWEEN $3 AND $4`,
        [workspaceId, `camp_${account.externalAccountId}`, since, until],
      );
      return { impressions: Number(row!.impressions), spend: Number(row!.spend) };
    };
    const principal = await ownerOf(workspaceId);
    const ok = async (input: Parameters<typeof adsResults>[1]) => {
      const view = await adsResults(principal, input);
      if (view.state !== "ok") throw new Error(`no results: ${view.state}`);
      return view;
    };

    // By default the platform's default account: its campaign only, in yen (whole units), its last 7 days.
    const first = await ok({});
    expect(first.accounts.map((a) => [a.adAccountId, a.platform, a.currency, a.isDefault])).toEqual([
      [yen.id, "platform_a", "JPY", true],
      [dollars.id, "platform_a", "USD", false],
    ]);
    expect(first.results).toMatchObject({ adAccountId: yen.id, currency: "JPY", timeZone: "Pacific/Honolulu", today: yenToday, until: yenToday });
    const inYen = await stored(yen, first.results.since, first.results.until);
    expect(inYen.spend).toBeGreaterThan(0);
    expect(first.results.totals).toMatchObject({ impressions: inYen.impressions, spend: inYen.spend });
    expect(first.results.campaigns.map((c) => c.id)).toEqual([`camp_${yen.externalAccountId}`]);
    // ?platform= (the address before accounts were told apart) still opens that platform's default.
    expect((await ok({ platform: "platform_a" })).results.adAccountId).toBe(yen.id);

    // The dollar account, picked by id: its own campaign, in dollars, over its own days ending on its own today.
    const second = await ok({ account: dollars.id });
    expect(second.results).toMatchObject({ adAccountId: dollars.id, currency: "USD", timeZone: "Pacific/Kiritimati", today: dollarToday, until: dollarToday });
    const inDollars = await stored(dollars, second.results.since, second.results.until);
    expect(inDollars.spend).toBeGreaterThan(0);
    expect(second.results.totals).toMatchObject({ impressions: inDollars.impressions, spend: inDollars.spend / 100 });
    expect(second.results.campaigns.map((c) => c.id)).toEqual([`camp_${dollars.externalAccountId}`]);
    // A range given is in the picked account's days, and checked against them.
    const day = await ok({ account: dollars.id, since: dollarToday, until: dollarToday });
    expect(day.results.totals.impressions).toBe((await stored(dollars, dollarToday, dollarToday)).impressions);
    expect(await adsResults(principal, { account: dollars.id, since: dollarToday, until: yenToday })).toMatchObject({
      state: "invalid_range",
      account: { adAccountId: dollars.id },
    });

    // The page names each account of the platform with its currency, and the picked one's amounts in its own.
    const { renderToStaticMarkup } = await import("react-dom/server");
    const { createElement } = await import("react");
    const { AdsResults } = await import("@/app/dashboard/ads/ads-results");
    const html = renderToStaticMarkup(createElement(AdsResults, { view: second }));
    expect(html).toContain(`<option value="${yen.id}">Platform A · ${yen.externalAccountId} (JPY)</option>`);
    expect(html).toMatch(new RegExp(`<option value="${dollars.id}" selected="">Platform A · ${dollars.externalAccountId} \\(USD\\)</option>`));
    expect(html).toContain("Amounts in USD.");
  }, 120_000);
});

describe("creative figures and labels when the accounts' currencies differ", () => {
  type Sums = { creativeId: string; platform: string; impressions: number; clicks: number; spend: number; conversions: number };
  let workspaceId: string;
  /** What the rollup stored per creative and platform (all of it inside the 30-day window), in minor units. */
  let sums: Sums[];
  const on = (creativeId: string, platform: string) => sums.find((s) => s.creativeId === creativeId && s.platform === platform)!;
  const YEN_CREATIVES = ["cre_both", "cre_yen_0", "cre_yen_1"];

  beforeAll(async () => {
    const { createWorkspace } = await import("@/lib/workspaces/workspaces");
    const { plantActiveAds } = await import("./many-ads");
    const { getAdAccount } = await import("@/lib/platforms");
    const { advanceSandbox, setSandboxCurrency } = await import("@/lib/platforms/sandbox/operator");
    const { queryRows } = await import("@/lib/db/client");
    ({ workspaceId } = await createWorkspace({ name: "Labels in yen and dollars", plan: "pro" }));
    // The sandbox prices every account in the same minor units, while yen prices are larger numbers than cent prices:
    // the yen ads get a lower quality (fewer clicks and conversions per unit spent), so every CPA in yen is far above
    // every one in cents. cre_both delivers on both accounts, mostly on the yen one (its dollar ads are weak).
    // The yen set spends three times the dollar one's budget: at the same 200.00 a day cre_yen_0's six days came to 4 to 9
    // conversions (three runs), close enough to the 3 a comparison needs that a CI run fell under it; now 18 to 36.
    await plantActiveAds(workspaceId, "platform_a", 20, {
      dailyBudgetMinor: 60_000,
      creatives: [
        { id: "cre_yen_0", quality: 0.65 },
        { id: "cre_yen_0", quality: 0.65 },
        { id: "cre_yen_1", quality: 0.8 },
        { id: "cre_yen_1", quality: 0.8 },
        { id: "cre_both", quality: 1 },
      ],
    });
    await plantActiveAds(workspaceId, "platform_b", 20, {
      creatives: [
        { id: "cre_usd_0", quality: 1.2 },
        { id: "cre_usd_1", quality: 1.3 },
        { id: "cre_usd_2", quality: 1.4 },
        { id: "cre_usd_3", quality: 1.5 },
        { id: "cre_both", quality: 0.5 },
      ],
    });
    await setSandboxCurrency((await getAdAccount(workspaceId, "platform_a"))!, "JPY");
    await advanceSandbox(workspaceId, 24 * 6);
    // cre_both starts as a loser: with the lowest yen CPA by far it cannot stay one, so the run moves it and sends its
    // creative.status_changed (from neutral, the sandbox's random delivery left it neutral in some runs, and no event).
    await db.creativePerformance.create({
      data: {
        creativeId: "cre_both",
        workspaceId,
        impressions: 0,
        clicks: 0,
        spendMinor: 0n,
        conversions: 0,
        conversionValueMinor: 0n,
        label: "loser",
        reason: "set by the test",
        updatedAt: new Date(),
      },
    });
    await run(workspaceId);
    sums = await queryRows<Sums>(
      `SELECT "creativeId", platform::text AS platform, sum(impressions)::float8 AS impressions, sum(clicks)::float8 AS clicks,
              sum("spendMinor")::float8 AS spend, sum(conversions)::float8 AS conversions
         FROM ad_daily_insights WHERE "workspaceId" = $1 GROUP BY 1, 2`,
      [workspaceId],
    );
  }, 120_000);

  it("takes a creative's figures from its accounts in the currency with more impressions, never adding the other's", async () => {
    const yen = on("cre_both", "platform_a");
    const dollars = on("cre_both", "platform_b");
    expect(yen.impressions).toBeGreaterThan(dollars.impressions);
    expect(dollars.spend).toBeGreaterThan(0);
    const rows = await db.creativePerformance.findMany({ where: { workspaceId } });
    const both = rows.find((r) => r.creativeId === "cre_both")!;
    expect(both).toMatchObject({ currency: "JPY", impressions: yen.impressions, clicks: yen.clicks, conversions: yen.conversions });
    expect(Number(both.spendMinor)).toBe(yen.spend);
    expect(both.cpa).toBeCloseTo(yen.spend / yen.conversions, 6);
    for (const r of rows) expect(r.currency).toBe(YEN_CREATIVES.includes(r.creativeId) ? "JPY" : "USD");
  });

  it("compares a creative's CPA only with the median of the creatives in its currency", async () => {
    const rows = await db.creativePerformance.findMany({ where: { workspaceId } });
    expect(rows.every((r) => r.conversions >= 3)).toBe(true);
    const inYen = rows.filter((r) => YEN_CREATIVES.includes(r.creativeId)).sort((a, b) => a.cpa! - b.cpa!);
    // The middle of the three yen creatives is the yen median: neutral. Against the median of all seven (a dollar
    // creative's CPA in cents, far below every yen CPA) it lost.
    const middle = inYen[1]!;
    const ofAll = rows.map((r) => r.cpa!).sort((a, b) => a - b)[3]!;
    expect(middle.cpa!).toBeGreaterThanOrEqual(1.25 * ofAll);
    const cpa = middle.cpa!.toFixed(0);
    expect(middle).toMatchObject({ label: "neutral", reason: `CPA ${cpa} JPY within the band around the median CPA ${cpa} JPY` });
  });

  it("sends creative.status_changed with the creative's own currency's numbers, naming it", async () => {
    const majorOf = (minor: number, currency: string) => (currency === "JPY" ? minor : minor / 100);
    const events = (await db.webhookEvent.findMany({ where: { workspaceId, type: "creative.status_changed" } })).map((e) => JSON.parse(e.body).data);
    // cre_both (the lowest yen CPA by far) has left the loser label it started with.
    expect(events.map((e) => e.creative.id)).toContain("cre_both");
    for (const e of events) {
      const currency = YEN_CREATIVES.includes(e.creative.id) ? "JPY" : "USD";
      const own = on(e.creative.id, currency === "JPY" ? "platform_a" : "platform_b");
      expect(e.last30Days).toMatchObject({
        currency,
        spend: majorOf(own.spend, currency),
        impressions: own.impressions,
        clicks: own.clicks,
        conversions: own.conversions,
      });
      // The event's CPA is rounded to the currency's minor unit (a yen CPA of 5331.5 is 5332).
      expect(e.last30Days.cpa).toBeCloseTo(majorOf(Math.round(own.spend / own.conversions), currency), 6);
    }
  });

  it("answers list_creative_performance with each creative's money in its own currency, named", async () => {
    const { callTool } = await import("@/lib/tools/call");
    const outcome = await callTool(await ownerOf(workspaceId), "list_creative_performance", {});
    if (!outcome.ok) throw new Error(outcome.body.error.message);
    const listed = (outcome.body.result as { creatives: { creativeId: string; currency: string; spend: number }[] }).creatives;
    expect(listed.find((c) => c.creativeId === "cre_both")).toMatchObject({ currency: "JPY", spend: on("cre_both", "platform_a").spend });
    expect(listed.find((c) => c.creativeId === "cre_usd_0")).toMatchObject({ currency: "USD", spend: on("cre_usd_0", "platform_b").spend / 100 });
  });

  it("sorts list_creative_performance by spend within each currency, the currency with more impressions first", async () => {
    const { callTool } = await import("@/lib/tools/call");
    const outcome = await callTool(await ownerOf(workspaceId), "list_creative_performance", { sort: "spend" });
    if (!outcome.ok) throw new Error(outcome.body.error.message);
    const listed = (outcome.body.result as { creatives: { creativeId: string; currency: string; spend: number; impressions: number }[] }).creatives;
    const impressionsIn = (currency: string) => listed.filter((c) => c.currency === currency).reduce((sum, c) => sum + c.impressions, 0);
    const [first, second] = impressionsIn("JPY") > impressionsIn("USD") ? ["JPY", "USD"] : ["USD", "JPY"];
    // Yen and cents are never compared as numbers: one currency's creatives, then the other's, each by spend.
    expect(listed.map((c) => c.currency)).toEqual(
      [...listed.filter((c) => c.currency === first), ...listed.filter((c) => c.currency === second)].map((c) => c.currency),
    );
    for (const currency of [first, second]) {
      const spends = listed.filter((c) => c.currency === currency).map((c) => c.spend);
      expect(spends).toEqual([...spends].sort((a, b) => b - a));
    }
  });
});

describe("the assistant's performance facts in a won account", () => {
  it("compares a creative only with the creatives past the won's own minimum spend (30,000 KRW, not 2,000 minor units)", async () => {
    const { createWorkspace } = await import("@/lib/workspaces/workspaces");
    const { callTool } = await import("@/lib/tools/call");
    const { workspaceId } = await createWorkspace({ name: "Won", plan: "pro" });
    // What the rollup stores: three creatives well past the minimums (CPAs 30,000, 40,000 and 50,000 won) and one
    // that spent ₩15,000 (about $10) for its ten conversions, too little to count in the median.
    const spends = { crv_won_a: 300_000, crv_won_b: 400_000, crv_won_c: 500_000, crv_won_small: 15_000 };
    for (const [id, spend] of Object.entries(spends)) {
      await db.creative.create({
        data: { id, workspaceId, fileName: `${id}.png`, kind: "image", contentType: "image/png", sizeBytes: 10, storageKey: `k/${id}`, status: "ready" },
      });
      await db.creativePerformance.create({
        data: {
          creativeId: id,
          workspaceId,
          impressions: 50_000,
          clicks: 500,
          spendMinor: BigInt(spend),
          conversions: 10,
          conversionValueMinor: 0n,
          cpa: spend / 10,
          currency: "KRW",
          reason: "set by the test",
          updatedAt: new Date(),
        },
      });
    }
    const outcome = await callTool(await ownerOf(workspaceId), "get_performance_facts", { creativeId: "crv_won_b" });
    if (!outcome.ok) throw new Error(outcome.body.error.message);
    const facts = (outcome.body.result as { facts: { key: string; text: string }[] }).facts;
    expect(facts.find((f) => f.key === "versus_median")!.text).toBe(
      "The workspace's goal is CPA. Against the median of 3 comparable creatives (CPA 40000 KRW), its CPA 40000 KRW is 0.00% different (equal).",
    );
  });
});
