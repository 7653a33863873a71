import http from "node:http";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createTenant } from "../helpers/fixtures";
import { freshDatabaseUrl } from "../helpers/fresh-database";
import { finishedUpload, postUploads, uploadEvents, waitFor, type WebhookEventRecord } from "../helpers/library";
import { pngImage } from "../helpers/media-fixtures";
import { postgresUnavailableReason, startPostgres, type TestPostgres } from "../helpers/postgres";
import { startServer, tempDataDir, type TestServer } from "../helpers/server";
import { startReceiver } from "../webhooks/helpers/receiver";

/**
 * A rolling restart of two instances sharing one PostgreSQL database, under upload and webhook
 * traffic: each instance in turn gets SIGTERM while an upload is still arriving, finishes it,
 * hands its job runs back, and a replacement starts. Nothing may be lost or done twice.
 */
const unavailable = postgresUnavailableReason();
const servers: TestServer[] = [];
let ownPostgres: TestPostgres | undefined;
afterAll(async () => {
  for (const s of servers) await s.kill();
  await ownPostgres?.stop();
});

async function freshDatabase(): Promise<string> {
  const url = await freshDatabaseUrl("rolling");
  if (url) return url;
  ownPostgres = await startPostgres();
  return ownPostgres.createDatabase(`rolling_${Date.now()}`);
}

/** An upload whose multipart body trickles in over `durationMs`: still in flight when the server is told to stop. */
function slowUpload(baseUrl: string, key: string, name: string, bytes: Buffer, durationMs: number): Promise<{ status: number; body: any }> {
  const boundary = `----adloom${Date.now()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = Buffer.concat([head, bytes, tail]);
  const url = new URL("/api/v1/uploads", baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": `multipart/form-data; boundary=${boundary}`, "Content-Length": body.length },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || "null") }));
      },
    );
    req.on("error", reject);
    const pieces = 10;
    const size = Math.ceil(body.length / pieces);
    let i = 0;
    const next = () => {
      const chunk = body.subarray(i * size, (i + 1) * size);
      i++;
      if (i >= pieces) return req.end(chunk);
      req.write(chunk);
      setTimeout(next, durationMs / pieces);
    };
    next();
  });
}

/** The socket error under a failed fetch (undici puts it in `cause`). */
const causeOf = (err: unknown) => (err as { cause?: { code?: string; message?: string } })?.cause;
const refused = (err: unknown) => causeOf(err)?.code === "ECONNREFUSED";
/**
 * A kept-alive connection closed before any answer: on an instance being stopped, one its SIGTERM closed as idle while
 * this request was on its way (HTTP/1.1's keep-alive race, RFC 9112 section 9.3.1). A server closes only connections with
 * no request begun, so nothing of it was applied, and the client tries another instance as it does when refused. A CI
 * run under load met it once (the request sent a moment before the instance left the live list).
 */
const closedUnanswered = (err: unknown) => ["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"].includes(causeOf(err)?.code ?? "");

describe.skipIf(unavailable)("rolling restart on one PostgreSQL database", () => {
  it("loses no upload, sends one terminal event per upload and one request per webhook attempt", async () => {
    const databaseUrl = await freshDatabase();
    const env = { PLATFORM_RETRY_DELAYS_MS: "500,500", SANDBOX_SLOW_PUSH_MS: "2500", WEBHOOK_RETRY_SCHEDULE: "1s,1s", SHUTDOWN_TIMEOUT_MS: "20000" };
    // Instances of one installation share its files (media, generated secrets): one DATA_DIR here, S3 or a shared volume in production.
    const dataDir = tempDataDir("rolling");
    const [a, b] = await Promise.all([startServer({ dataDir, databaseUrl, env }), startServer({ dataDir, databaseUrl, env })]);
    servers.push(a!, b!);
    const tenant = await createTenant({ dataDir: a!.dataDir });

    // A real receiver on loopback: the first attempt at every third event fails, so retries happen across restarts too.
    const seenEvents = new Map<string, number>();
    const receiver = await startReceiver((req) => {
      const eventId = String(req.headers["service-event-id"]);
      const n = seenEvents.get(eventId) ?? seenEvents.size;
      if (!seenEvents.has(eventId)) seenEvents.set(eventId, n);
      const firstAttempt = receiver.requests.filter((r) => r.headers["service-event-id"] === eventId).length === 1;
      return { status: n % 3 === 0 && firstAttempt ? 500 : 200 };
    });
    const put = await fetch(`${a!.url}/api/v1/webhooks`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${tenant.key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ url: receiver.url }),
    });
    expect(put.status).toBeLessThan(300);

    // Steady traffic: a small batch every 300 ms to whichever instance is up (a refused connection is
    // an instance that stopped listening; the client tries another, as behind a load balancer).
    const live: TestServer[] = [a!, b!];
    const uploadIds: string[] = [];
    const failures: string[] = [];
    let counter = 0;
    let running = true;
    const image = await pngImage(40, 40);
    const traffic = (async () => {
      while (running) {
        const n = ++counter;
        const files = [
          { name: `sandbox-slow-${n}.png`, type: "image/png", bytes: image },
          { name: `plain-${n}.png`, type: "image/png", bytes: image },
        ];
        for (let tries = 0; tries < live.length * 2; tries++) {
          const target = live[(n + tries) % live.length]!;
          try {
            const res = await postUploads(tenant.key, files, { baseUrl: target.url });
            if (res.status !== 201) failures.push(`${res.status} ${JSON.stringify(res.body)}`);
            else uploadIds.push(...res.body.uploads.map((u: { id: string }) => u.id));
            break;
          } catch (err) {
            if (!refused(err) && !(closedUnanswered(err) && !live.includes(target))) {
              const cause = causeOf(err);
              failures.push(`upload to ${target.url} broke: ${(err as Error).message} (${cause?.code ?? ""} ${cause?.message ?? ""})`);
              break;
            }
          }
        }
        await new Promise((r) => setTimeout(r, 300));
      }
    })();

    const pg2 = new pg.Client({ connectionString: databaseUrl });
    pg2.on("error", () => undefined); // the server may be stopped under it when the test fails
    await pg2.connect();
    const leaseOwners = async () =>
      (
        await pg2.query<{ owner: string }>(
          `SELECT DISTINCT "leaseOwner" AS owner FROM job_runs WHERE "leaseOwner" IS NOT NULL AND "leaseExpiresAt" > now() AT TIME ZONE 'UTC'`,
        )
      ).rows.map((r) => r.owner);

    /** SIGTERM `old` while an upload is still arriving; that upload must succeed; `old`'s runs must be handed back at once. */
    const replace = async (old: TestServer): Promise<TestServer> => {
      await new Promise((r) => setTimeout(r, 2500)); // let jobs get into their slow pushes
      const inFlight = slowUpload(old.url, tenant.key, `in-flight-${old.port}.png`, image, 1500);
      await new Promise((r) => setTimeout(r, 400));
      live.splice(live.indexOf(old), 1);
      const stopping = old.stop();
      const answer = await inFlight;
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      uploadIds.push(...answer.body.uploads.map((u: { id: string }) => u.id));
      const startedStop = Date.now();
      await stopping;
      expect(Date.now() - startedStop).toBeLessThan(20_000);
      // Only the other instance can hold leases now: the stopped one released every run it had.
      expect((await leaseOwners()).length).toBeLessThanOrEqual(1);
      const next = await startServer({ dataDir, databaseUrl, env });
      servers.push(next);
      live.push(next);
      return next;
    };

    const a2 = await replace(a!);
    await replace(b!);
    await new Promise((r) => setTimeout(r, 1500));
    running = false;
    await traffic;
    expect(failures).toEqual([]);
    expect(uploadIds.length).toBeGreaterThanOrEqual(10);

    // Every upload finishes, well within one lease time of the last restart.
    const finished = await Promise.all(uploadIds.map((id) => finishedUpload(tenant.key, id, 60_000, a2.url)));
    expect(finished.filter((u) => u.status !== "completed").map((u) => `${u.id} ${u.status} ${u.error}`)).toEqual([]);
    const creatives = (await pg2.query<{ n: number }>(`SELECT count(*)::int AS n FROM creatives WHERE "workspaceId" = $1`, [tenant.workspaceId])).rows[0]!.n;
    expect(creatives).toBe(uploadIds.length);

    // Exactly one terminal event per upload, each delivered successfully exactly once.
    const events = (): WebhookEventRecord[] => receiver.requests.map((r) => JSON.parse(r.body));
    await waitFor(
      "a delivered terminal event for every upload",
      async () => uploadIds.every((id) => uploadEvents(events(), id).length >= 1) || undefined,
      60_000,
    );
    await new Promise((r) => setTimeout(r, 3000)); // time for a duplicate to show up, were there one
    for (const id of uploadIds)
      expect(
        uploadEvents(events(), id).map((e) => e.type),
        id,
      ).toEqual(["upload.completed"]);
    const okPerEvent = new Map<string, number>();
    for (const r of receiver.requests) {
      const eventId = String(r.headers["service-event-id"]);
      const ok = !(seenEvents.get(eventId)! % 3 === 0 && receiver.requests.find((x) => x.headers["service-event-id"] === eventId) === r);
      if (ok) okPerEvent.set(eventId, (okPerEvent.get(eventId) ?? 0) + 1);
    }
    expect([...okPerEvent.values()].every((n) => n === 1)).toBe(true);

    // Every attempt in the delivery log reached the receiver once, and nothing reached it unlogged.
    const logged = (
      await pg2.query<{ id: string; dispatchId: string | null; attempt: number }>(
        `SELECT id, "dispatchId", attempt FROM webhook_deliveries WHERE "workspaceId" = $1`,
        [tenant.workspaceId],
      )
    ).rows;
    const received = receiver.requests.map((r) => String(r.headers["service-delivery-id"]));
    expect(new Set(received).size).toBe(received.length);
    expect([...received].sort()).toEqual(logged.map((d) => d.id).sort());
    const attempts = logged.map((d) => `${d.dispatchId}#${d.attempt}`);
    expect(new Set(attempts).size).toBe(attempts.length);
    expect(logged.some((d) => d.attempt > 1)).toBe(true);

    await pg2.end();
    await receiver.close();
  }, 420_000);
});
