/**
 * The scheduled pulls honour a rate-limiting platform's wait: a live Meta account on the Graph API fake
 * (tests/helpers/fake-meta.ts) answers each pull once with a rate limit and its usage header's wait; the
 * job (embedded runner on a controlled clock) sleeps durably for that wait and pulls again only after it.
 * Insights (performance-rollup), comments (comments-pull) and leads (leads-pull).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeMeta } from "../helpers/fake-meta";

const ACCOUNT = "act_321000111";
const PAGE = "3000003";
const TOKEN = "waits-token";

const meta = await fakeMeta({
  version: "v24.0",
  accounts: { [ACCOUNT]: { name: "Waits", currency: "USD", timezone_name: "America/New_York", account_status: 1 } },
  pages: { [PAGE]: { name: "Waits Page" } },
});
meta.grant(TOKEN, [ACCOUNT], [PAGE]);
process.env.PLATFORM_A_API_URL = meta.url;
process.env.PLATFORM_A_API_VERSION = "v24.0";
process.env.PLATFORMS_MODE = "live";
delete process.env.PLATFORM_A_APP_SECRET;

await import("./helpers/isolated-env");
const { performanceRollup } = await import("@/inngest/functions/performance-rollup");
const { commentsPull } = await import("@/inngest/functions/comments-pull");
const { leadsPull } = await import("@/inngest/functions/leads-pull");
const { getDb } = await import("@/lib/db/client");
const { sealAccountCredentials } = await import("@/lib/platforms");
const { createWorkspace } = await import("@/lib/workspaces/workspaces");
const { newId } = await import("@/lib/ids");
const { migrateTestDatabase } = await import("./helpers/database");
const { clockedRunner } = await import("./helpers/clocked-runner");
const { eventually } = await import("./helpers/wait");

let clock = new Date("2030-01-01T00:04:50Z");
const runner = clockedRunner([performanceRollup, commentsPull, leadsPull], () => clock);

afterAll(async () => {
  runner.stop();
  await meta.close();
});

/** Meta's usage headers: the ad account's reset time (seconds) or the business use case's regain time (minutes). */
const accountUsage = (seconds: number) => ({
  "x-ad-account-usage": JSON.stringify({ acc_id_util_pct: 100, reset_time_duration: seconds, ads_api_access_tier: "standard_access" }),
});
const businessUsage = (minutes: number) => ({
  "x-business-use-case-usage": JSON.stringify({
    "1234": [{ type: "ads_insights", call_count: 100, total_cputime: 40, total_time: 60, estimated_time_to_regain_access: minutes }],
  }),
});
const limited = (code: number) => ({ message: `(#${code}) User request limit reached`, type: "OAuthException", code, is_transient: true });

const calls = (pattern: RegExp) => meta.requests.filter((r) => pattern.test(r.path) && r.method === "GET").length;
async function at(iso: string) {
  clock = new Date(iso);
  runner.wake();
  await new Promise((r) => setTimeout(r, 1500)); // the runner polls every 100 ms: what is due runs meanwhile
}

beforeAll(async () => {
  await migrateTestDatabase();
  const { workspaceId } = await createWorkspace({ name: "Waits", plan: "pro" });
  const id = newId("adacct");
  await getDb().adAccount.create({
    data: {
      id,
      workspaceId,
      platform: "platform_a",
      mode: "live",
      externalAccountId: ACCOUNT,
      status: "active",
      defaultFor: "platform_a",
      currency: "USD",
      timeZone: "America/New_York",
      pageId: PAGE,
      credentialsCiphertext: sealAccountCredentials(id, { accessToken: TOKEN }),
    },
  });
  // A published ad makes the account a target of the rollup and the comments poll.
  await getDb().ad.create({
    data: {
      id: newId("ad"),
      workspaceId,
      campaignId: "cmp_x",
      adSetId: "adset_x",
      platform: "platform_a",
      clientRef: "ref-waits",
      externalId: "120200000000999",
      name: "Published",
      status: "paused",
      creativeId: "cre_x",
      callToAction: "shop_now",
      landingUrl: "https://example.com",
    },
  });
  await runner.start();
}, 120_000);

describe("scheduled pulls on a rate-limited platform", () => {
  it("sleep for the platform's wait (leads 20 s, comments 2 min, insights 10 min) and pull again only after it", async () => {
    meta.failNext(/\/leadgen_forms$/, limited(4), { headers: accountUsage(20) });
    meta.failNext(new RegExp(`/${ACCOUNT}/ads$`), limited(17), { headers: accountUsage(120) });
    meta.failNext(new RegExp(`/${ACCOUNT}/insights$`), limited(80000), { headers: businessUsage(10) });

    // 00:05:30: the three schedules fire (leads every minute, comments every five, the rollup at :05); each is refused.
    clock = new Date("2030-01-01T00:05:30Z");
    runner.wake();
    await eventually(async () => calls(/\/leadgen_forms$/) === 1 && calls(/\/ads$/) === 1 && calls(/\/insights$/) === 1, 60_000, "the three refused pulls");
    const waits = await eventually(
      async () => {
        const rows = await getDb().jobWait.findMany({ where: { kind: "sleep" } });
        return rows.length === 3 ? rows : undefined;
      },
      30_000,
      "three durable sleeps",
    );
    const seconds = waits.map((w) => Math.round((w.until!.getTime() - Date.parse("2030-01-01T00:05:30Z")) / 1000)).sort((a, b) => a - b);
    expect(seconds[0]).toBeGreaterThanOrEqual(20);
    expect(seconds[0]).toBeLessThan(25);
    expect(seconds[1]).toBeGreaterThanOrEqual(120);
    expect(seconds[1]).toBeLessThan(125);
    expect(seconds[2]).toBeGreaterThanOrEqual(600);
    expect(seconds[2]).toBeLessThan(605);

    // Before each wait is over nothing is called again; after it, that pull is.
    await at("2030-01-01T00:05:45Z");
    expect(calls(/\/leadgen_forms$/)).toBe(1);
    await at("2030-01-01T00:05:55Z");
    await eventually(async () => calls(/\/leadgen_forms$/) === 2, 15_000, "the leads pull after its wait");
    expect(calls(/\/ads$/)).toBe(1);
    expect(calls(/\/insights$/)).toBe(1);

    await at("2030-01-01T00:07:20Z");
    const adsBefore = calls(/\/ads$/);
    expect(adsBefore).toBe(1);
    await at("2030-01-01T00:07:40Z");
    await eventually(async () => calls(/\/ads$/) === 2, 15_000, "the comments poll after its wait");
    expect(calls(/\/insights$/)).toBe(1);

    await at("2030-01-01T00:15:20Z");
    await at("2030-01-01T00:15:40Z");
    await eventually(async () => calls(/\/insights$/) >= 2, 15_000, "the insights pull after its wait");
    const runs = await eventually(
      async () => {
        const rollups = await getDb().jobRun.findMany({ where: { functionId: { endsWith: "performance-rollup" } } });
        return rollups.length && rollups.every((r) => r.status === "completed") ? rollups : undefined;
      },
      30_000,
      "the rollup run completed",
    );
    expect(runs[0]!.output).toMatchObject({ failedAccounts: 0 });
  }, 240_000);
});
