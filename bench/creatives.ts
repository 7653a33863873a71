/**
 * npm run bench:creatives [-- --db postgres] [-- --seconds N]
 * A library of 200 creatives (each with copy variants) made through the real upload job,
 * then GET /api/v1/creatives (a page of 100 with copy counts) and GET
 * /api/v1/creatives/{id}/copy against authenticated GET /api/v1/me in the same run.
 */
import sharp from "sharp";
import { benchTenant, load, row, startBenchServer } from "./lib";

const CONNECTIONS = 16;
const CREATIVES = 200;
const seconds = process.argv.includes("--seconds") ? Number(process.argv[process.argv.indexOf("--seconds") + 1]) : 10;

const { server, db, stop } = await startBenchServer({ RATE_LIMIT_PER_MINUTE: "100000000" });
try {
  const { key } = await benchTenant(server);
  const auth = { Authorization: `Bearer ${key}` };
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(server.url + path, { ...init, headers: { ...auth, ...(init.headers ?? {}) } });
    return { status: res.status, body: (await res.json()) as any };
  };

  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#3a6" } })
    .png()
    .toBuffer();
  const seedStarted = Date.now();
  for (let sent = 0; sent < CREATIVES; sent += 25) {
    const form = new FormData();
    for (let i = sent; i < Math.min(CREATIVES, sent + 25); i++) form.append("files", new Blob([new Uint8Array(png)], { type: "image/png" }), `bench-${i}.png`);
    const res = await call("/api/v1/uploads", { method: "POST", body: form });
    if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  let creatives: any[] = [];
  while (creatives.length < CREATIVES || creatives.some((c) => c.status === "importing")) {
    await new Promise((r) => setTimeout(r, 500));
    creatives = (await call(`/api/v1/creatives?limit=200`)).body.creatives;
  }
  const seedSeconds = (Date.now() - seedStarted) / 1000;
  for (const c of creatives.slice(0, 50)) {
    for (let v = 0; v < 4; v++) {
      await call(`/api/v1/creatives/${c.id}/copy`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ headline: `Headline ${v}`, primaryText: "Primary text ".repeat(20), label: `v${v}` }),
      });
    }
  }
  const copyPath = `/api/v1/creatives/${creatives[0].id}/copy`;

  for (const path of ["/api/v1/me", "/api/v1/creatives", copyPath]) await load(server.url + path, { connections: CONNECTIONS, seconds: 2, headers: auth });
  const me = await load(`${server.url}/api/v1/me`, { connections: CONNECTIONS, seconds, headers: auth });
  const list = await load(`${server.url}/api/v1/creatives`, { connections: CONNECTIONS, seconds, headers: auth });
  const copies = await load(server.url + copyPath, { connections: CONNECTIONS, seconds, headers: auth });

  console.log(`\nbench:creatives — database ${db}, ${CONNECTIONS} connections, ${seconds} s each`);
  console.log(
    `seeded ${CREATIVES} creatives through the upload job in ${seedSeconds.toFixed(1)} s (${(CREATIVES / seedSeconds).toFixed(1)} uploads/s to ready)`,
  );
  console.log(row("GET /api/v1/me (baseline)", me));
  console.log(row("GET /api/v1/creatives (100/page)", list));
  console.log(row("GET .../copy (4 variants)", copies));
  console.log(`ratio creatives ÷ me: ${(list.requestsPerSecond / me.requestsPerSecond).toFixed(2)} (target ≥ 0.25)`);
  console.log(`ratio copy list ÷ me: ${(copies.requestsPerSecond / me.requestsPerSecond).toFixed(2)} (target ≥ 0.50)`);
  if (me.non2xx || list.non2xx || copies.non2xx) console.log("warning: some requests failed; the figures are not comparable");
} finally {
  await stop();
}
process.exit(0);
