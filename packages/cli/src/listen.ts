import { createHmac, randomBytes } from "node:crypto";
import type { StreamedEvent } from "@adloom/sdk";
import { stringFlag, UsageError } from "./args.js";
import type { Context } from "./commands.js";
import { EXIT } from "./exit-codes.js";

const FORWARD_TIMEOUT_MS = 10_000;
const RECONNECT_MS = 2_000;

/** The headers a webhook delivery carries, signed with this session's secret (both schemes, as the server signs). */
function signedHeaders(secret: string, event: StreamedEvent): Record<string, string> {
  const t = Math.floor(Date.now() / 1000);
  return {
    "Content-Type": "application/json",
    "User-Agent": "adloom-cli-listen",
    "service-event-id": event.id,
    "service-event-type": event.type,
    "service-signature": `t=${t},v1=${createHmac("sha256", secret).update(`${t}.`).update(event.raw).digest("hex")}`,
    "webhook-id": event.id,
    "webhook-timestamp": String(t),
    "webhook-signature": `v1,${createHmac("sha256", secret).update(`${event.id}.${t}.`).update(event.raw).digest("base64")}`,
  };
}

async function forward(url: string, secret: string, event: StreamedEvent): Promise<{ status: number | null; error: string | null; durationMs: number }> {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: signedHeaders(secret, event),
      body: event.raw,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      redirect: "manual",
    });
    await response.arrayBuffer().catch(() => undefined);
    return { status: response.status, error: null, durationMs: Math.round(performance.now() - started) };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return { status: null, error: cause ?? (err as Error).message, durationMs: Math.round(performance.now() - started) };
  }
}

/**
 * `adloom webhooks listen --forward-to <url> [--events a,b]`: the workspace's events, live
 * (GET /api/v1/events/stream), each forwarded to a local URL signed with a secret made for
 * this session; one line per event. Ctrl-C ends it cleanly (exit 0).
 */
export async function listen(ctx: Context): Promise<number> {
  const target = stringFlag(ctx.args, "forward-to");
  if (!target) throw new UsageError("webhooks listen needs --forward-to <url>, e.g. --forward-to http://localhost:4000/hooks");
  let url: URL;
  try {
    url = new URL(target);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error();
  } catch {
    throw new UsageError(`--forward-to must be an http(s) URL, got "${target}"`);
  }
  const events = stringFlag(ctx.args, "events")
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const secret = `adlsig_${randomBytes(24).toString("base64url")}`; // the service-signature key, as an endpoint's
  const client = ctx.client();
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const say = (line: string, json: object) => process.stdout.write((ctx.json ? JSON.stringify(json) : line) + "\n");

  let announced = false;
  // After a dropped connection, the stream resumes after the last event forwarded: none is missed.
  let lastEventId: string | undefined;
  try {
    while (!stop.signal.aborted) {
      try {
        const stream = client.events.stream({
          events,
          signal: stop.signal,
          lastEventId,
          onOpen: () => {
            if (announced) return;
            announced = true;
            say(
              `Ready: forwarding ${events?.join(", ") ?? "every event"} to ${url.href} (Ctrl-C to stop)\n` +
                `Signing secret for this session: ${secret}\n` +
                `  (service-signature key; Standard Webhooks: whsec_${Buffer.from(secret).toString("base64")})`,
              { ready: true, forwardTo: url.href, events: events ?? null, secret, standardWebhooksSecret: `whsec_${Buffer.from(secret).toString("base64")}` },
            );
          },
        });
        for await (const event of stream) {
          const result = await forward(url.href, secret, event);
          lastEventId = event.id;
          const time = new Date().toISOString();
          say(`${time}  ${event.type.padEnd(24)} ${event.id}  -> ${result.status ?? `failed (${result.error})`} (${result.durationMs} ms)`, {
            time,
            type: event.type,
            id: event.id,
            status: result.status,
            error: result.error,
            durationMs: result.durationMs,
          });
        }
      } catch (err) {
        // A refused key or plan ends the session; a dropped connection is retried.
        if (stop.signal.aborted) break;
        if (
          (err as { code?: string }).code !== "network_error" &&
          (err as { status?: number }).status !== undefined &&
          (err as { status: number }).status < 500
        )
          throw err;
        process.stderr.write(`stream interrupted (${(err as Error).message}); reconnecting\n`);
      }
      if (!stop.signal.aborted) await new Promise((r) => setTimeout(r, RECONNECT_MS));
    }
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  say("Stopped listening.", { stopped: true });
  return EXIT.ok;
}
