import { inject } from "vitest";
import { api } from "../helpers/fixtures";
import { finishedUpload, uploadIds, waitFor, allCreatives } from "../helpers/library";
import { mp4Video } from "../helpers/media-fixtures";
import { toolResult } from "../tools/helpers";

/** A guest request: no key, the same origin as a browser on the guest page would send. */
export function guest(path: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  if (init.method && init.method !== "GET" && !headers.has("origin")) headers.set("Origin", inject("baseUrl"));
  return api(null)(path, { ...init, headers });
}

/** A review link through the tool; returns its id and token. */
export async function reviewLink(key: string, args: Record<string, unknown>): Promise<{ id: string; token: string; url: string }> {
  const { link, token, url } = await toolResult(key, "create_review_link", { name: "Review", ...args });
  return { id: link.id, token, url };
}

let uniq = 0;

/** A ready video creative (2 s MP4). */
export async function readyVideo(key: string): Promise<{ creativeId: string; fileName: string }> {
  const name = `review-${Date.now()}-${++uniq}.mp4`;
  const [uploadId] = await uploadIds(key, [{ name, type: "video/mp4", bytes: mp4Video(64, 36, 3) }]);
  const upload = await finishedUpload(key, uploadId!, 90_000);
  if (upload.status !== "completed") throw new Error(`video upload ended ${upload.status}: ${upload.error}`);
  const creative = await waitFor(`creative of ${name}`, async () => (await allCreatives(key)).find((c) => c.fileName === name && c.status === "ready"), 90_000);
  return { creativeId: creative.id, fileName: name };
}
