/**
 * The Ads page's results over HTTP: ads built and activated through the API, the sandbox advanced
 * day by day and the hourly rollup run through the operator CLI, then the page fetched with a
 * signed-in session. Its figures per campaign, ad set and ad, and its totals over a date range,
 * agree with get_insights over the same stored rollup rows; another workspace sees none of them;
 * a range that is not one answers a sentence, never a 5xx.
 */
import { describe, expect, it } from "vitest";
import { admin } from "../helpers/fixtures";
import { rollup, liveAdSet } from "../performance/helpers";
import { toolResult } from "../tools/helpers";
import { sessionFetch, signIn } from "../dashboard/session";
import { advance } from "./helpers";

const PASSWORD = "a long enough password";
let n = 0;

async function ownerWithKey() {
  const email = `results-${Date.now()}-${++n}@example.com`;
  const { workspaceId, ownerUserId } = await admin(["workspace", "create", "--name", "Results", "--plan", "pro", "--owner-email", email]);
  await admin(["user", "password", "--email", email, "--password", PASSWORD]);
  const { key } = await admin(["key", "create", "--workspace", workspaceId!, "--user", ownerUserId!]);
  const { jar } = await signIn(email, PASSWORD);
  return { workspaceId: workspaceId!, key: key!, page: sessionFetch(jar) };
}

type Row = { level: string; id: string; impressions: number; clicks: number; conversions: number; spend: number };
const attrs = (tag: string) => Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
const figures = (a: Record<string, string>) => ({
  impressions: Number(a["data-impressions"]),
  clicks: Number(a["data-clicks"]),
  conversions: Number(a["data-conversions"]),
  spend: Number(a["data-spend"]),
});

function parseResults(html: string) {
  const rows: Row[] = [...html.matchAll(/<tr[^>]*data-testid="result-row"[^>]*>/g)].map((m) => {
    const a = attrs(m[0]);
    return { level: a["data-level"]!, id: a["data-id"]!, ...figures(a) };
  });
  const totalsTag = html.match(/<tr[^>]*data-testid="results-totals"[^>]*>/)?.[0];
  const rangeTag = html.match(/<p[^>]*data-testid="results-range"[^>]*>/)?.[0];
  return {
    rows,
    totals: totalsTag ? figures(attrs(totalsTag)) : null,
    range: rangeTag ? { since: attrs(rangeTag)["data-since"]!, until: attrs(rangeTag)["data-until"]! } : null,
  };
}

/** get_insights' totals at a level over a range, as the figures the page carries. */
async function insights(key: string, level: string, ids: string[], since: string, until: string) {
  const { rows } = await toolResult(key, "get_insights", { level, ids, since, until });
  return new Map<string, Omit<Row, "level" | "id">>(
    rows.map((r: any) => [r.id, { impressions: r.impressions, clicks: r.clicks, conversions: r.conversions, spend: Number(r.spend.toFixed(2)) }]),
  );
}

const sum = (list: Omit<Row, "level" | "id">[]) =>
  list.reduce(
    (t, r) => ({
      impressions: t.impressions + r.impressions,
      clicks: t.clicks + r.clicks,
      conversions: t.conversions + r.conversions,
      spend: Number((t.spend + r.spend).toFixed(2)),
    }),
    { impressions: 0, clicks: 0, conversions: 0, spend: 0 },
  );

describe("results on the Ads page", () => {
  it("shows per campaign, ad set and ad the rollup's figures over a date range, with totals, to its own workspace only", async () => {
    const owner = await ownerWithKey();
    const first = await liveAdSet(owner.key, { creatives: 2 });
    const second = await liveAdSet(owner.key, { creatives: 1, widths: [460] });
    for (let day = 0; day < 3; day++) {
      await advance(owner.workspaceId, 24);
      await rollup(owner.workspaceId);
    }
    const adIds = [...first.ads, ...second.ads].map((a) => a.id);

    // The default range: the last 7 days of the account's clock.
    const res = await owner.page("/dashboard/ads");
    expect(res.status).toBe(200);
    const shown = parseResults(res.body as string);
    expect(shown.range).not.toBeNull();
    const { since, until } = shown.range!;
    expect(Date.parse(until) - Date.parse(since)).toBe(6 * 86_400_000);
    const perAd = await insights(owner.key, "ad", adIds, since, until);
    const total = sum([...perAd.values()]);
    expect(total.impressions).toBeGreaterThan(0);
    expect(shown.totals).toEqual(total);
    for (const id of adIds) expect(shown.rows.find((r) => r.level === "ad" && r.id === id)).toMatchObject(perAd.get(id)!);
    const perCampaign = await insights(owner.key, "campaign", [first.campaign.id, second.campaign.id], since, until);
    const perAdSet = await insights(owner.key, "ad_set", [first.adSet.id, second.adSet.id], since, until);
    for (const [id, f] of perCampaign) expect(shown.rows.find((r) => r.level === "campaign" && r.id === id)).toMatchObject(f);
    for (const [id, f] of perAdSet) expect(shown.rows.find((r) => r.level === "ad_set" && r.id === id)).toMatchObject(f);
    expect(shown.rows.filter((r) => r.level === "campaign")).toHaveLength(2);

    // One day with delivery: the totals are that day's, smaller than the week's.
    const { rows: days } = await toolResult(owner.key, "get_insights", { level: "ad", ids: adIds, since, until, breakdown: "day" });
    const day = days
      .filter((r: any) => r.impressions > 0)
      .map((r: any) => r.date as string)
      .sort()[0]!;
    const oneDay = parseResults((await owner.page(`/dashboard/ads?platform=platform_a&from=${day}&to=${day}`)).body as string);
    expect(oneDay.range).toEqual({ since: day, until: day });
    const dayTotal = sum([...(await insights(owner.key, "ad", adIds, day, day)).values()]);
    expect(dayTotal.impressions).toBeGreaterThan(0);
    expect(oneDay.totals).toEqual(dayTotal);
    expect(dayTotal.impressions).toBeLessThan(total.impressions);

    // Another workspace signed in sees none of it.
    const other = await ownerWithKey();
    const theirs = await other.page("/dashboard/ads");
    expect(theirs.status).toBe(200);
    expect(parseResults(theirs.body as string)).toEqual({ rows: [], totals: null, range: null });
    for (const id of [...adIds, first.campaign.id, first.adSet.id]) expect(theirs.body).not.toContain(id);

    // Ranges that are not ranges: a sentence, no figures, no 5xx.
    for (const query of ["from=2026-02-30&to=2026-03-02", `from=${until}&to=${since}`, "from=yesterday&to=today", "from=2024-01-01&to=2026-01-01"]) {
      const bad = await owner.page(`/dashboard/ads?${query}`);
      expect(bad.status, query).toBe(200);
      expect(bad.body, query).toContain('data-testid="results-range-problem"');
      expect(parseResults(bad.body as string).totals, query).toBeNull();
    }
  });
});
