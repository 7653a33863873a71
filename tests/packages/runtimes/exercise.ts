import type * as Sdk from "@adloom/sdk";
import type { ListCreativesResult } from "@adloom/sdk";

/**
 * The consumer every runtime runs (Bun, Deno, an edge runtime, Chromium): web APIs only, no
 * imports at run time, so each harness hands in the library as it loaded it (ESM import,
 * CommonJS require, an npm: specifier, a bundle) and prints what this returns.
 */

export interface ExerciseConfig {
  runtime: string;
  baseUrl: string;
  apiKey: string;
  /** A small PNG, base64. */
  png: string;
  /** The same PNG on disk, where the runtime has a file system (uploaded from its path through node:fs). */
  pngPath?: string | undefined;
  /** A delivery signed by the server's signer, for verifyWebhook. */
  webhook: { body: string; header: string; secret: string };
}

export interface ExerciseResult {
  accountId: string;
  tools: number;
  /** The second catalog read was answered 304 and served from the cache (ETag exposed, If-None-Match allowed). */
  toolsRevalidated: boolean;
  folder: string;
  uploads: { fileName: string; status: string }[];
  /** Bytes each file reported sent through onProgress. */
  progress: number[];
  /** Without a file system: what uploading from a path says. */
  pathError: string | null;
  creatives: string[];
  /** The same creatives through the REST resource, two to a page (cursor pagination). */
  library: string[];
  /** upload.completed events read from the live event stream (Server-Sent Events over fetch), by file name. */
  streamed: string[];
  error: { code: string; status: number; requestId: boolean } | null;
  webhookEventId: string;
  tamperedWebhook: string;
}

export async function exercise(sdk: typeof Sdk, config: ExerciseConfig): Promise<ExerciseResult> {
  const { Adloom, AdloomError, verifyWebhook, WebhookVerificationError } = sdk;
  const adloom = new Adloom({ apiKey: config.apiKey, baseUrl: config.baseUrl });

  const account = await adloom.account.get();
  const tools = await adloom.tools.list();
  const toolsRevalidated = (await adloom.tools.list()) === tools;
  const { folder } = await adloom.tools.call("create_folder", { name: `${config.runtime} folder` });
  // @ts-expect-error limit is an integer in list_creatives' schema (Deno type-checks this file)
  void (() => adloom.tools.call("list_creatives", { limit: "ten" }));

  // The live event stream, open before the uploads so their upload.completed events arrive on it.
  const stop = new AbortController();
  const streamed: string[] = [];
  let opened: () => void = () => {};
  const open = new Promise<void>((resolve) => (opened = resolve));
  const listening = (async () => {
    for await (const { event } of adloom.events.stream({ events: ["upload.completed"], signal: stop.signal, onOpen: opened })) {
      streamed.push(String((event.data.upload as { fileName?: unknown } | undefined)?.fileName));
      if (streamed.length === (config.pngPath ? 3 : 2)) return;
    }
  })();
  await Promise.race([open, listening]);

  const bytes = Uint8Array.from(atob(config.png), (c) => c.charCodeAt(0));
  const progress: number[] = [];
  const files: Sdk.FileInput[] = [
    { data: new Blob([bytes], { type: "image/png" }), name: `${config.runtime}-blob.png` },
    { stream: new Blob([bytes]).stream(), name: `${config.runtime}-stream.png`, size: bytes.length },
  ];
  let pathError: string | null = null;
  if (config.pngPath) files.push({ path: config.pngPath, name: `${config.runtime}-path.png` });
  else
    pathError = await adloom.uploads.create(["/nowhere/photo.png"]).then(
      () => "uploaded",
      (err: Error) => err.message,
    );
  const created = await adloom.uploads.create(files, { folderId: folder.id, onProgress: (p) => (progress[p.index] = p.loaded) });
  const uploads = await Promise.all(created.map((u) => adloom.uploads.waitFor(u.id, { intervalMs: 200, timeoutMs: 60_000 })));
  let page: ListCreativesResult = { creatives: [], nextCursor: null };
  for (const deadline = Date.now() + 30_000; page.creatives.length < uploads.length && Date.now() < deadline; ) {
    page = await adloom.tools.call("list_creatives", { folderId: folder.id, sort: "name" });
    if (page.creatives.length < uploads.length) await new Promise((r) => setTimeout(r, 200));
  }

  const library: string[] = [];
  for await (const creative of adloom.creatives.iterate({ limit: 2 })) library.push(creative.fileName);

  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([listening, new Promise((resolve) => (timer = setTimeout(resolve, 20_000)))]);
  clearTimeout(timer);
  stop.abort();

  let error: ExerciseResult["error"] = null;
  try {
    await new Adloom({ apiKey: "adl_wrong", baseUrl: config.baseUrl, maxRetries: 0 }).account.get();
  } catch (err) {
    if (err instanceof AdloomError) error = { code: err.code, status: err.status, requestId: err.requestId !== null };
  }

  const event = await verifyWebhook(config.webhook);
  let tamperedWebhook = "accepted";
  try {
    await verifyWebhook({ ...config.webhook, body: config.webhook.body.replace("}", " }") });
  } catch (err) {
    if (err instanceof WebhookVerificationError) tamperedWebhook = err.code;
  }

  return {
    accountId: account.id,
    tools: tools.length,
    toolsRevalidated,
    folder: folder.name,
    uploads: uploads.map((u) => ({ fileName: u.fileName, status: u.status })),
    progress,
    pathError,
    creatives: page.creatives.map((c) => c.fileName),
    library: library.sort(),
    streamed: streamed.sort(),
    error,
    webhookEventId: event.id,
    tamperedWebhook,
  };
}
