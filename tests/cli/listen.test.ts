import { spawn } from "node:child_process";
import os from "node:os";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Adloom, verifyWebhook } from "@adloom/sdk";
import { paced } from "../../scripts/test-pace.mjs";
import { admin, api, createMemberKey, createTenant } from "../helpers/fixtures";
import { toolResult } from "../tools/helpers";
import { pngImage } from "../helpers/media-fixtures";
import { until } from "../helpers/wait";
import { startReceiver, type Receiver } from "../webhooks/helpers/receiver";
import { ADLOOM_BIN } from "../helpers/cli";

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe("adloom webhooks listen", () => {
  it("forwards the workspace's events live, signed with the session's secret, and stops cleanly on Ctrl-C", async () => {
    const t = await createTenant();
    const call = api(t.key);
    // The workspace's own endpoint (a test event needs one); the listener gets events whatever it subscribes to.
    await call("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url.replace(/\/hooks$/, `/endpoint/${t.workspaceId}`) } });
    await call("/api/v1/webhooks", { method: "PATCH", json: { events: ["review.comment"] } });
    const forwardPath = `/forward/${t.workspaceId}`;

    const child = spawn(process.execPath, [ADLOOM_BIN, "webhooks", "listen", "--forward-to", receiver.url.replace(/\/hooks$/, forwardPath), "--json"], {
      env: {
        PATH: process.env.PATH,
        HOME: os.tmpdir(),
        NODE_ENV: "production",
        ADLOOM_API_KEY: t.key,
        ADLOOM_BASE_URL: inject("baseUrl"),
        ADLOOM_CONFIG_DIR: os.tmpdir(),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    const lines = () =>
      stdout
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, any>);
    try {
      const ready = await until(async () => lines().find((l) => l.ready), `the listener to connect (stderr: ${stderr})`);
      expect(ready.secret).toMatch(/^adlsig_/);

      const fired = (await call("/api/v1/webhooks/test", { method: "POST" })).body.event;
      const [upload] = await new Adloom({ apiKey: t.key, baseUrl: inject("baseUrl") }).uploads.create([{ data: await pngImage(8, 8), name: "listened.png" }]);

      const forwarded = () => receiver.requests.filter((r) => r.path === forwardPath);
      const received = await until(async () => {
        const types = forwarded().map((r) => r.headers["service-event-type"]);
        return types.includes("test") && types.includes("upload.completed") && forwarded();
      }, "the test event and the upload's event at the local receiver");
      for (const request of received) {
        const event = await verifyWebhook({ body: request.body, header: request.headers["service-signature"] as string, secret: ready.secret });
        const standard = new Webhook(ready.standardWebhooksSecret).verify(request.body, request.headers as Record<string, string>);
        expect(standard).toEqual(event);
      }
      const test = received.find((r) => r.headers["service-event-type"] === "test")!;
      expect(JSON.parse(test.body).id).toBe(fired.id);
      const completed = JSON.parse(received.find((r) => r.headers["service-event-type"] === "upload.completed")!.body);
      expect(completed.data.upload).toMatchObject({ id: upload!.id, status: "completed" });

      // One line per event: type, id, the local answer's status, and the time.
      await until(async () => lines().filter((l) => l.type).length >= 2, "a line per forwarded event");
      expect(lines().find((l) => l.id === fired.id)).toMatchObject({ type: "test", status: 200, time: expect.any(String) });

      child.kill("SIGINT");
      expect(await exited).toBe(0);
      expect(lines().at(-1)).toEqual({ stopped: true });
    } finally {
      child.kill("SIGKILL");
    }
  }, 120_000);

  it("the stream is an API route: authenticated, filtered by kind, unknown kinds refused", async () => {
    const t = await createTenant();
    expect((await api(null)("/api/v1/events/stream")).status).toBe(401);
    const bad = await api(t.key)("/api/v1/events/stream?events=no.such.kind");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
    const stop = new AbortController();
    const response = await fetch(`${inject("baseUrl")}/api/v1/events/stream?events=test`, {
      headers: { Authorization: `Bearer ${t.key}` },
      signal: stop.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    stop.abort();

    // Through the client library, filtered: only the kinds asked for arrive.
    await api(t.key)("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url } });
    const adloom = new Adloom({ apiKey: t.key, baseUrl: inject("baseUrl") });
    const ended = new AbortController();
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    const seen: string[] = [];
    const reading = (async () => {
      for await (const e of adloom.events.stream({ events: ["upload.completed"], signal: ended.signal, onOpen: () => opened() })) {
        seen.push(e.type);
        expect(JSON.parse(e.raw)).toEqual(e.event);
        if (e.type === "upload.completed") ended.abort();
      }
    })();
    await open;
    await api(t.key)("/api/v1/webhooks/test", { method: "POST" });
    await adloom.uploads.create([{ data: await pngImage(6, 6), name: "filtered.png" }]);
    await reading;
    expect(seen).toEqual(["upload.completed"]);
  }, 60_000);

  it("a stream ends once its key is revoked or its member removed; connecting again is refused", async () => {
    const t = await createTenant();
    const admin1 = await createMemberKey(t, { role: "admin" });
    const admin2 = await createMemberKey(t, { role: "admin" });
    const open = async (key: string) => {
      const res = await fetch(`${inject("baseUrl")}/api/v1/events/stream`, { headers: { Authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      let text = "";
      const ended = (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return text;
          text += new TextDecoder().decode(value);
        }
      })();
      return { ended, text: () => text };
    };
    const revoked = await open(admin1.key);
    const removed = await open(admin2.key);
    // Both streams are live: a test event reaches them.
    await api(t.key)("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url } });
    await api(t.key)("/api/v1/webhooks/test", { method: "POST" });
    await until(async () => revoked.text().includes("event: test") && removed.text().includes("event: test"), "the test event on both streams", 10_000);
    const started = Date.now();
    await admin(["key", "revoke", "--id", admin1.keyId]);
    await toolResult(t.key, "remove_member", { userId: admin2.userId });
    const [revokedText, removedText] = await Promise.all([revoked.ended, removed.ended]);
    expect(Date.now() - started).toBeLessThan(paced(15_000));
    for (const text of [revokedText, removedText]) expect(text).toMatch(/: access ended\n\n$/);
    // Connecting again is refused.
    expect((await api(admin1.key)("/api/v1/events/stream")).status).toBe(401);
    expect((await api(admin2.key)("/api/v1/events/stream")).status).toBe(401);
  }, 60_000);

  it("a stream opened again with Last-Event-ID starts with the events after that one; an unknown id starts from now", async () => {
    const t = await createTenant();
    await api(t.key)("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url.replace(/\/hooks$/, `/resume/${t.workspaceId}`) } });
    const openStream = (lastEventId?: string) => {
      const stop = new AbortController();
      const headers: Record<string, string> = { Authorization: `Bearer ${t.key}`, ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}) };
      let text = "";
      const reading = fetch(`${inject("baseUrl")}/api/v1/events/stream?events=test`, { headers, signal: stop.signal })
        .then(async (res) => {
          const decoder = new TextDecoder();
          const reader = res.body!.getReader();
          for (let read = await reader.read(); !read.done; read = await reader.read()) text += decoder.decode(read.value, { stream: true });
        })
        .catch(() => undefined);
      return { ids: () => [...text.matchAll(/^id: (\S+)$/gm)].map((m) => m[1]!), text: () => text, close: () => (stop.abort(), reading) };
    };
    const fire = async () => (await api(t.key)("/api/v1/webhooks/test", { method: "POST" })).body.event.id as string;

    const first = openStream();
    await until(async () => first.text().includes(": connected"), "the stream to open");
    const seen = [await fire(), await fire()];
    await until(async () => first.ids().length >= 2, "two events");
    expect(first.ids()).toEqual(seen);
    await first.close();
    // Meanwhile, disconnected:
    const missed = [await fire(), await fire()];

    const resumed = openStream(seen[1]);
    await until(async () => resumed.ids().length >= 2, "the missed events");
    await new Promise((r) => setTimeout(r, 1000));
    expect(resumed.ids()).toEqual(missed);
    expect(resumed.text()).toContain(`: resumed after ${seen[1]}`);
    await resumed.close();

    const unknown = openStream("evt_not_in_this_workspace");
    await until(async () => unknown.text().includes(": connected"), "the stream to open");
    const fresh = await fire();
    await until(async () => unknown.ids().length >= 1, "the new event");
    await new Promise((r) => setTimeout(r, 500));
    expect(unknown.ids()).toEqual([fresh]);
    await unknown.close();
  }, 60_000);

  it("a burst of more events than one read takes (700 within a second) all reach the stream, each once", async () => {
    const t = await createTenant();
    await api(t.key)("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url.replace(/\/hooks$/, `/burst/${t.workspaceId}`) } });
    const stop = new AbortController();
    const res = await fetch(`${inject("baseUrl")}/api/v1/events/stream?events=test`, { headers: { Authorization: `Bearer ${t.key}` }, signal: stop.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const reading = (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          text += decoder.decode(value, { stream: true });
        }
      } catch {
        // aborted below
      }
    })();
    const ids = () => [...text.matchAll(/^id: (\S+)$/gm)].map((m) => m[1]);
    try {
      await admin(["webhooks", "load-test", "--workspace", t.workspaceId, "--count", "700", "--rate", "1000"]);
      await until(async () => ids().length >= 700, "700 events on the stream");
      await new Promise((r) => setTimeout(r, 1000)); // and none twice
      expect(ids()).toHaveLength(700);
      expect(new Set(ids()).size).toBe(700);
    } finally {
      stop.abort();
      await reading;
    }
  }, 120_000);
});
