/**
 * npm run bench:ads [-- --db postgres] [-- --seconds N]
 * 1. Builds 100 ads in one build_ads_from_library call (10 creatives x 10 copy variants): time, per ad.
 * 2. POST /api/v1/tools/list_ads (a page of 50, with today's and 7-day delivery) in a workspace of
 *    50 ads and in one of 5,000 ads, at the same concurrency: the ratio of their throughput
 *    (target <= 1.3: listing does not slow down as the workspace grows).
 * The sandbox's per-account call limit is lifted so the figures measure the service, not the throttle.
 */
import autocannon from "autocannon";
import sharp from "sharp";
import { benchTenant, row, startBenchServer, type LoadResult } from "./lib";

const CONNECTIONS = 8;
const ROUNDS = 3;
const seconds = process.argv.includes("--seconds") ? Number(process.argv[process.argv.indexOf("--seconds") + 1]) : 15;

const { server, db, stop } = await startBenchServer({ RATE_LIMIT_PER_MINUTE: "100000000", SANDBOX_ADS_CALLS_PER_SECOND: "1000000" });

async function tool(key: string, name: string, args: object): Promise<any> {
  const res = await fetch(`${server.url}/api/v1/tools/${name}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify(args),
  });
  const body = (await res.json()) as any;
  if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(body)}`);
  return body.result;
}

/** A workspace with `creatives` ready images and `copies` copy variants, and a campaign to build into. */
async function workspace(creatives: number, copies: number) {
  const { key, workspaceId } = await benchTenant(server);
  const png = await sharp({ create: { width: 400, height: 400, channels: 3, background: "#36a" } })
    .png()
    .toBuffer();
  const form = new FormData();
  for (let i = 0; i < creatives; i++) form.append("files", new Blob([new Uint8Array(png)], { type: "image/png" }), `bench-ad-${i}.png`);
  const res = await fetch(`${server.url}/api/v1/uploads`, { method: "POST", headers: { Authorization: `Bearer ${key}` }, body: form });
  if (res.status !== 201) throw new Error(`upload: ${res.status}`);
  let ready: any[] = [];
  while (ready.length < creatives) {
    await new Promise((r) => setTimeout(r, 300));
    ready = (await tool(key, "list_creatives", { limit: 200 })).creatives.filter((c: any) => c.status === "ready");
  }
  const copyIds: string[] = [];
  for (let i = 0; i < copies; i++)
    copyIds.push((await tool(key, "create_copy_variant", { creativeId: ready[0].id, headline: `Headline ${i}`, label: `v${i}` })).id);
  const { campaign } = await tool(key, "create_campaign", { platform: "platform_a", name: "Bench", objective: "sales" });
  const adSet = async (name: string) =>
    (
      await tool(key, "create_ad_set", {
        campaignId: campaign.id,
        platform: "platform_a",
        name,
        budget: { type: "daily", amountMinor: 5000 },
        targetCountries: ["US"],
      })
    ).adSet.id as string;
  return { key, workspaceId, creativeIds: ready.map((c) => c.id as string), copyIds, adSet };
}

async function listLoad(key: string, duration: number): Promise<LoadResult> {
  const result = await autocannon({
    url: `${server.url}/api/v1/tools/list_ads`,
    method: "POST",
    connections: CONNECTIONS,
    duration,
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ limit: 50 }),
  });
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors };
}

try {
  // 1. One bulk call of 100 ads.
  const small = await workspace(10, 10);
  const bulkSet = await small.adSet("Bulk 100");
  const started = performance.now();
  const built = await tool(small.key, "build_ads_from_library", {
    adSetId: bulkSet,
    creativeIds: small.creativeIds,
    copyVariantIds: small.copyIds,
    pairing: "all",
    callToAction: "shop_now",
    landingUrl: "https://example.com",
  });
  const bulkMs = performance.now() - started;
  if (built.created !== 100) throw new Error(`expected 100 ads, got ${JSON.stringify({ created: built.created, failed: built.failed })}`);
  // The 50-ad workspace: delete 50 of them (deleted ads are not listed) — simpler: a second workspace.
  const fifty = await workspace(10, 5);
  await tool(fifty.key, "build_ads_from_library", {
    adSetId: await fifty.adSet("Fifty"),
    creativeIds: fifty.creativeIds,
    copyVariantIds: fifty.copyIds,
    pairing: "all",
    callToAction: "shop_now",
    landingUrl: "https://example.com",
  });

  // 2. A workspace of 5,000 ads: 25 ad sets x 200 pairs.
  const large = await workspace(20, 10);
  const seedStarted = performance.now();
  for (let i = 0; i < 25; i++) {
    const r = await tool(large.key, "build_ads_from_library", {
      adSetId: await large.adSet(`Set ${i}`),
      creativeIds: large.creativeIds,
      copyVariantIds: large.copyIds,
      pairing: "all",
      callToAction: "shop_now",
      landingUrl: "https://example.com",
    });
    if (r.created !== 200) throw new Error(`seed: ${JSON.stringify({ created: r.created, failed: r.failed })}`);
  }
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  // Some delivery in both, so the listed ads carry real numbers.
  for (const ws of [fifty, large]) {
    const ids = (await tool(ws.key, "list_ads", { limit: 50 })).ads.map((a: any) => a.id);
    await tool(ws.key, "activate_ads", { adIds: ids });
  }

  await listLoad(fifty.key, 2); // warm-up
  await listLoad(large.key, 2);
  // Interleaved rounds, so a change in the machine's load during the run weighs on both sides alike.
  const rounds: { at50: LoadResult; at5000: LoadResult }[] = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push({ at50: await listLoad(fifty.key, seconds / ROUNDS), at5000: await listLoad(large.key, seconds / ROUNDS) });
  const combine = (rs: LoadResult[]): LoadResult => ({
    requestsPerSecond: rs.reduce((s, r) => s + r.requestsPerSecond, 0) / rs.length,
    p50: Math.max(...rs.map((r) => r.p50)),
    p99: Math.max(...rs.map((r) => r.p99)),
    non2xx: rs.reduce((s, r) => s + r.non2xx, 0),
  });
  const at50 = combine(rounds.map((r) => r.at50));
  const at5000 = combine(rounds.map((r) => r.at5000));

  console.log(
    `\nbench:ads — database ${db}, ${CONNECTIONS} connections, ${seconds} s per workspace in ${ROUNDS} interleaved rounds (p50/p99: the worst round)`,
  );
  console.log(`build_ads_from_library, 100 ads in one call: ${(bulkMs / 1000).toFixed(2)} s (${(bulkMs / 100).toFixed(1)} ms per ad)`);
  console.log(`seeded 5,000 ads in 25 calls of 200: ${seedSeconds.toFixed(1)} s (${((seedSeconds * 1000) / 5000).toFixed(1)} ms per ad)`);
  console.log(row("list_ads (50/page), 50 ads", at50));
  console.log(row("list_ads (50/page), 5,000 ads", at5000));
  console.log(`ratio 50 ÷ 5,000 ads: ${(at50.requestsPerSecond / at5000.requestsPerSecond).toFixed(2)} (target ≤ 1.3)`);
  if (at50.non2xx || at5000.non2xx) console.log("warning: some requests failed; the figures are not comparable");
} finally {
  await stop();
}
process.exit(0);
