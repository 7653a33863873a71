import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { Adloom, AdloomError } from "@adloom/sdk";
import { api, createMemberKey, createTenant } from "../helpers/fixtures";
import { pngImage } from "../helpers/media-fixtures";
import { receiverServer } from "../tools/tool-calls";

const client = (key: string, fetchImpl?: typeof fetch) => new Adloom({ apiKey: key, baseUrl: inject("baseUrl"), fetch: fetchImpl });

async function rejection(promise: Promise<unknown>): Promise<AdloomError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AdloomError);
  return err as AdloomError;
}

describe("client library against a running server", () => {
  it("reads the account and revalidates the tool catalog with its ETag", async () => {
    const t = await createTenant();
    const statuses: number[] = [];
    const recording: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      statuses.push(res.status);
      return res;
    };
    const adloom = client(t.key, recording);
    expect((await adloom.account.get()).id).toBe(t.ownerUserId);
    const tools = await adloom.tools.list();
    const again = await adloom.tools.list();
    expect(again).toBe(tools);
    expect(statuses).toEqual([200, 200, 304]);
    expect(tools.find((x) => x.name === "get_upload")).toMatchObject({ readOnly: true, category: "uploads" });
  });

  it("uploads from a path, a buffer and a stream with progress, then waits for the results", async () => {
    const t = await createTenant();
    const adloom = client(t.key);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-sdk-"));
    const file = path.join(dir, "from-path.png");
    fs.writeFileSync(file, await pngImage(32, 32));
    const bytes = await pngImage(24, 24);
    const streamed = await pngImage(20, 20);
    const progress = new Map<number, { loaded: number; total: number | null }>();
    const created = await adloom.uploads.create(
      [
        file,
        { data: bytes, name: "from-buffer.png" },
        { stream: new Blob([new Uint8Array(streamed)]).stream(), name: "from-stream.png", size: streamed.length },
      ],
      { platform: "platform_b", onProgress: (p) => progress.set(p.index, { loaded: p.loaded, total: p.total }) },
    );
    expect(created).toHaveLength(3);
    expect(progress.get(0)).toEqual({ loaded: fs.statSync(file).size, total: fs.statSync(file).size });
    expect(progress.get(1)).toEqual({ loaded: bytes.length, total: bytes.length });
    expect(progress.get(2)).toEqual({ loaded: streamed.length, total: streamed.length });
    const finished = await Promise.all(created.map((u) => adloom.uploads.waitFor(u.id, { intervalMs: 200, timeoutMs: 60_000 })));
    expect(finished.map((u) => [u.fileName, u.status, u.platform])).toEqual([
      ["from-path.png", "completed", "platform_b"],
      ["from-buffer.png", "completed", "platform_b"],
      ["from-stream.png", "completed", "platform_b"],
    ]);
    expect(finished.every((u) => /^\d+$/.test(u.platform_b.imageId ?? ""))).toBe(true);

    // Auto-pagination walks every page.
    const seen: string[] = [];
    for await (const u of adloom.uploads.iterate({ limit: 1 })) seen.push(u.id);
    expect(seen.sort()).toEqual(created.map((u) => u.id).sort());

    // Library and copy through their resources.
    const creatives: string[] = [];
    for await (const c of adloom.creatives.iterate({ limit: 2 })) creatives.push(c.id);
    expect(creatives).toHaveLength(3);
    const { id } = await adloom.copy.add(creatives[0]!, { headline: "SDK" });
    await adloom.copy.update(creatives[0]!, id, { label: "v2" });
    expect((await adloom.copy.list(creatives[0]!)).items).toEqual([expect.objectContaining({ id, headline: "SDK", label: "v2" })]);
    await adloom.copy.remove(creatives[0]!, id);
    expect((await adloom.copy.list(creatives[0]!)).items).toEqual([]);
    expect(await adloom.creatives.delete([creatives[0]!, "crt_nope"])).toBe(1);

    await adloom.uploads.dismiss(created[0]!.id);
    expect((await rejection(adloom.uploads.get(created[0]!.id))).code).toBe("not_found");
    expect((await rejection(adloom.uploads.retry(created[1]!.id))).status).toBe(404);
  });

  it("calls tools and surfaces failures as AdloomError with the tool error codes", async () => {
    const t = await createTenant();
    const adloom = client(t.key);
    const { folder } = await adloom.tools.call("create_folder", { name: "SDK folder" });
    expect(folder.name).toBe("SDK folder");
    const invalid = await rejection(adloom.tools.call("list_folders", { limit: -1 }));
    expect(invalid).toMatchObject({ code: "invalid_input", status: 400 });
    expect(invalid.message).toMatch(/^Invalid input: limit/);
    expect(await rejection(adloom.tools.call("nope_nope"))).toMatchObject({ code: "not_found", status: 404 });
    const viewer = client((await createMemberKey(t, { role: "viewer" })).key);
    expect(await rejection(viewer.tools.call("delete_folder", { id: folder.id }))).toMatchObject({ code: "forbidden", status: 403 });
    const scoped = client((await createMemberKey(t, { role: "owner", scopes: ["upload"] })).key);
    const outOfScope = await rejection(scoped.tools.call("get_webhook"));
    expect(outOfScope).toMatchObject({ code: "forbidden", status: 403 });
    expect(outOfScope.message).toContain("unscoped");
    expect(await rejection(client("adl_bogus").account.get())).toMatchObject({ code: "unauthorized", status: 401 });
    const lapsed = await createTenant({ plan: "none" });
    expect(await rejection(client(lapsed.key).tools.list())).toMatchObject({ code: "subscription_required", status: 402 });

    // A key in the arguments is the idempotency key: the second call replays.
    const a = await adloom.tools.call("create_folder", { name: "Once", idempotencyKey: "sdk-1" });
    const b = await adloom.tools.call("create_folder", { name: "Once", idempotencyKey: "sdk-1" });
    expect(b).toEqual(a);
  });

  it("manages the webhook endpoint and its delivery log", async () => {
    const t = await createTenant();
    const adloom = client(t.key);
    const receiver = await receiverServer();
    try {
      expect(await adloom.webhooks.get()).toBeNull();
      const endpoint = await adloom.webhooks.setUrl(receiver.url);
      expect(endpoint).toMatchObject({ url: receiver.url });
      expect((await adloom.webhooks.setEvents(["upload.completed"])).events).toEqual(["upload.completed"]);
      const { event } = await adloom.webhooks.test();
      let delivery: { id: string } | undefined;
      for (let i = 0; i < 100 && !delivery; i++) {
        for await (const d of adloom.webhooks.iterateDeliveries({ limit: 1 })) if (d.eventId === event.id) delivery = d;
        if (!delivery) await new Promise((r) => setTimeout(r, 200));
      }
      expect(delivery).toBeDefined();
      expect(await adloom.webhooks.redeliver(delivery!.id)).toMatchObject({ eventId: event.id, trigger: "redelivery" });
      await adloom.webhooks.delete();
      expect(await adloom.webhooks.get()).toBeNull();
      expect((await api(t.key)("/api/v1/webhooks")).status).toBeLessThan(500);
    } finally {
      await receiver.close();
    }
  });
});
