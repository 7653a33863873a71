import http from "node:http";
import { inject } from "vitest";
import { paced } from "../../scripts/test-pace.mjs";
import { api } from "./fixtures";

export interface FileToUpload {
  name: string;
  type: string;
  bytes: Buffer;
}

/** POST /api/v1/uploads with real multipart bodies; returns the response. */
export async function postUploads(
  key: string,
  files: FileToUpload[],
  options: { platform?: string; folderId?: string; versionOf?: string; baseUrl?: string } = {},
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  if (options.platform) form.append("platform", options.platform);
  if (options.folderId) form.append("folderId", options.folderId);
  if (options.versionOf) form.append("versionOf", options.versionOf);
  for (const f of files) form.append("files", new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
  const res = await fetch(`${options.baseUrl ?? inject("baseUrl")}/api/v1/uploads`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}` },
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

/** Uploads files and returns their upload ids (asserting the 201). */
export async function uploadIds(key: string, files: FileToUpload[], options: Parameters<typeof postUploads>[2] = {}): Promise<string[]> {
  const res = await postUploads(key, files, options);
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.uploads.map((u: { id: string }) => u.id);
}

/** Polls until `check` returns a value, failing after `timeoutMs` (stretched by the run's pace) with the last value seen. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | null | false>, timeoutMs = 30_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + paced(timeoutMs);
  let last: unknown;
  for (;;) {
    last = await check().catch((err) => err);
    if (last && !(last instanceof Error)) return last as T;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Waits until the upload has finished (completed or failed) and returns it. */
export function finishedUpload(key: string, uploadId: string, timeoutMs = 30_000, baseUrl?: string) {
  const call = api(key, baseUrl);
  return waitFor(
    `upload ${uploadId} to finish`,
    async () => {
      const res = await call(`/api/v1/uploads/${uploadId}`);
      return res.status === 200 && res.body.upload.status !== "processing" ? res.body.upload : undefined;
    },
    timeoutMs,
  );
}

/** All creatives visible to the key (follows nextCursor). */
export async function allCreatives(key: string, baseUrl?: string): Promise<any[]> {
  const call = api(key, baseUrl);
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const res = await call(`/api/v1/creatives?limit=200${cursor ? `&cursor=${cursor}` : ""}`);
    if (res.status !== 200) throw new Error(`list creatives: ${res.status} ${JSON.stringify(res.body)}`);
    out.push(...res.body.creatives);
    cursor = res.body.nextCursor;
  } while (cursor);
  return out;
}

/** Waits until the creative with this id is visible and satisfies `ready`. */
export function creativeWhen(key: string, creativeId: string, ready: (c: any) => boolean, timeoutMs = 60_000, baseUrl?: string) {
  return waitFor(`creative ${creativeId}`, async () => (await allCreatives(key, baseUrl)).find((c) => c.id === creativeId && ready(c)), timeoutMs, 300);
}

export interface WebhookEventRecord {
  id: string;
  type: string;
  data: any;
}

/** A local HTTP receiver registered as the workspace's webhook endpoint; records every delivery. */
export async function webhookReceiver(key: string, baseUrl?: string): Promise<{ events: WebhookEventRecord[]; close(): Promise<void> }> {
  const events: WebhookEventRecord[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      try {
        events.push(JSON.parse(body));
      } catch {
        /* not ours */
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const res = await api(key, baseUrl)("/api/v1/webhooks", { method: "PUT", json: { url: `http://127.0.0.1:${port}/hook` } });
  if (res.status >= 300) throw new Error(`could not register the webhook: ${res.status} ${JSON.stringify(res.body)}`);
  return { events, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Distinct upload events (by event id) for one upload, as the receiver saw them. */
export function uploadEvents(events: WebhookEventRecord[], uploadId: string): WebhookEventRecord[] {
  const byId = new Map<string, WebhookEventRecord>();
  for (const e of events) if (e.type?.startsWith("upload.") && e.data?.upload?.id === uploadId) byId.set(e.id, e);
  return [...byId.values()];
}
