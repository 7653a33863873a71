import { AdloomError } from "./errors.js";
import { EventsResource } from "./events.js";
import { type FileInput, multipartBlob, multipartStream, prepareFiles, type UploadProgress } from "./multipart.js";
import { paginate } from "./paginate.js";
import { RESUMABLE_THRESHOLD_BYTES, type ResumableUploadOptions, sizeOf, uploadResumable } from "./resumable.js";
import { type ClientOptions, newIdempotencyKey, Transport } from "./transport.js";
import type { ToolTypes } from "./generated/tools.js";
import type { Account, CopyFields, CopyVariant, Creative, DeliveryFilters, Page, Platform, Tool, Upload, WebhookDelivery, WebhookEndpoint } from "./types.js";

export interface ListOptions {
  limit?: number | undefined;
  cursor?: string | undefined;
}

export interface WriteOptions {
  /** Replays the first answer for 24 hours; generated when not given (so retries are safe). */
  idempotencyKey?: string | undefined;
  signal?: AbortSignal | undefined;
}

export interface CreateUploadsOptions extends WriteOptions {
  platform?: Platform | undefined;
  folderId?: string | undefined;
  /** A creative id: the one file becomes that creative's next version (no push, no new creative; the finished Upload's `creativeId` names it). */
  versionOf?: string | undefined;
  /** Called as each file's bytes are sent. */
  onProgress?: ((progress: UploadProgress) => void) | undefined;
}

export interface WaitOptions {
  /** Give up after this long (ms); default 10 minutes. */
  timeoutMs?: number | undefined;
  /** Poll interval (ms); default 1000. */
  intervalMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** A tool this version of the library knows (generated from the catalog). */
export type ToolName = keyof ToolTypes;
/** The arguments of a known tool. */
export type ToolInput<N extends ToolName> = ToolTypes[N]["input"];
/** The result of a known tool. */
export type ToolOutput<N extends ToolName> = ToolTypes[N]["result"];

// biome-ignore lint/complexity/noBannedTypes: "{} extends T" asks whether T has no required key
type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

/**
 * The arguments after the tool name: typed by the tool's schema for a known name (required
 * when the tool has required arguments); any JSON object for a tool newer than this library.
 */
export type ToolCallArgs<N extends string> = N extends ToolName
  ? [RequiredKeys<ToolInput<N>>] extends [never]
    ? [args?: ToolInput<N>, options?: WriteOptions]
    : [args: ToolInput<N>, options?: WriteOptions]
  : [args?: Record<string, unknown>, options?: WriteOptions];

/** What a call returns: the tool's result type for a known name, a JSON object otherwise. */
export type ToolCallResult<N extends string> = N extends ToolName ? ToolOutput<N> : Record<string, unknown>;

const enc = encodeURIComponent;

/**
 * The Adloom API client: typed resources over /api/v1, the tool catalog, streaming
 * uploads with progress, auto-pagination and safe retries. Runs wherever fetch does.
 */
export class Adloom {
  readonly transport: Transport;
  readonly account: AccountResource;
  readonly uploads: UploadsResource;
  readonly creatives: CreativesResource;
  readonly copy: CopyResource;
  readonly webhooks: WebhooksResource;
  readonly tools: ToolsResource;
  readonly events: EventsResource;

  constructor(options: ClientOptions) {
    this.transport = new Transport(options);
    this.account = new AccountResource(this.transport);
    this.uploads = new UploadsResource(this.transport);
    this.creatives = new CreativesResource(this.transport);
    this.copy = new CopyResource(this.transport);
    this.webhooks = new WebhooksResource(this.transport);
    this.tools = new ToolsResource(this.transport);
    this.events = new EventsResource(this.transport);
  }
}

class AccountResource {
  constructor(private readonly t: Transport) {}

  /** The account behind the key (GET /api/v1/me). */
  async get(): Promise<Account> {
    return (await this.t.request<{ account: Account }>("/api/v1/me")).data.account;
  }
}

class UploadsResource {
  constructor(private readonly t: Transport) {}

  /** One page of uploads, newest first. */
  async list(options: ListOptions = {}): Promise<Page<Upload>> {
    const { data } = await this.t.request<{ uploads: Upload[]; nextCursor?: string | null }>("/api/v1/uploads", { query: { ...options } });
    return { items: data.uploads, nextCursor: data.nextCursor ?? null };
  }

  /** Every upload, page by page. */
  iterate(options: Omit<ListOptions, "cursor"> = {}): AsyncGenerator<Upload> {
    return paginate((cursor) => this.list({ ...options, cursor }));
  }

  async get(id: string): Promise<Upload> {
    return (await this.t.request<{ upload: Upload }>(`/api/v1/uploads/${enc(id)}`)).data.upload;
  }

  /**
   * Uploads files (paths, bytes or streams) in one multipart request, streamed: a file is
   * read only as the network takes it (in browsers, one Blob body: see `streamUploads`).
   * Returns one processing upload per file.
   */
  async create(files: FileInput[], options: CreateUploadsOptions = {}): Promise<{ id: string; status: "processing" }[]> {
    if (!files.length) throw new AdloomError({ code: "invalid_request", status: 0, message: "No files to upload" });
    const prepared = await prepareFiles(files);
    const boundary = `adloom-${newIdempotencyKey().slice(4)}`;
    const fields = { platform: options.platform, folderId: options.folderId, versionOf: options.versionOf };
    const request = {
      method: "POST" as const,
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      idempotencyKey: options.idempotencyKey,
      signal: options.signal,
    };
    type Created = { uploads: { id: string; status: "processing" }[] };
    if (!this.t.streamUploads) {
      const { body, sent } = await multipartBlob(boundary, fields, prepared, "files", options.onProgress);
      const { data } = await this.t.request<Created>("/api/v1/uploads", { ...request, body: () => body, replayable: true });
      sent();
      return data.uploads;
    }
    const { data } = await this.t.request<Created>("/api/v1/uploads", {
      ...request,
      body: () => multipartStream(boundary, fields, prepared, "files", options.onProgress),
      replayable: prepared.every((f) => f.replayable),
    });
    return data.uploads;
  }

  /**
   * Uploads one file over the resumable (tus) endpoint: a dropped connection resumes from the
   * server's offset. Needs `tus-js-client` (an optional peer dependency, or pass `{ tus }`).
   */
  async createResumable(file: FileInput, options: ResumableUploadOptions = {}): Promise<{ id: string; status: "processing" }> {
    return uploadResumable(this.t, file, options);
  }

  /**
   * Uploads files the best way for their size: files over `resumableAboveBytes` (20 MiB by default)
   * one by one over tus (`createResumable`), the rest together in one multipart request (`create`).
   * Returns one processing upload per file, in the order given.
   */
  async upload(
    files: FileInput[],
    options: CreateUploadsOptions & Omit<ResumableUploadOptions, "onProgress"> & { resumableAboveBytes?: number | undefined } = {},
  ): Promise<{ id: string; status: "processing" }[]> {
    const threshold = options.resumableAboveBytes ?? RESUMABLE_THRESHOLD_BYTES;
    const sizes = await Promise.all(files.map(sizeOf));
    const large = new Set(files.map((_, i) => i).filter((i) => (sizes[i] ?? 0) > threshold));
    const small = files.filter((_, i) => !large.has(i));
    const { onProgress, resumableAboveBytes: _, ...rest } = options;
    const smallResults = small.length ? await this.create(small, options) : [];
    const results: { id: string; status: "processing" }[] = [];
    let s = 0;
    for (const [index, file] of files.entries()) {
      if (!large.has(index)) {
        results.push(smallResults[s++]!);
        continue;
      }
      const fileName = typeof file === "string" ? file : "path" in file ? (file.name ?? file.path) : file.name;
      results.push(await this.createResumable(file, { ...rest, onProgress: (loaded, total) => onProgress?.({ index, fileName, loaded, total }) }));
    }
    return results;
  }

  /** Runs a failed upload's job again. */
  async retry(id: string, options: WriteOptions = {}): Promise<{ id: string; status: "processing" }> {
    return (await this.t.request<{ upload: { id: string; status: "processing" } }>(`/api/v1/uploads/${enc(id)}`, { method: "POST", ...options })).data.upload;
  }

  /** Removes a finished upload from the list. */
  async dismiss(id: string, options: WriteOptions = {}): Promise<void> {
    await this.t.request(`/api/v1/uploads/${enc(id)}`, { method: "DELETE", ...options });
  }

  /** Polls an upload until it is completed or failed (it does not throw on failed: check `status`). */
  async waitFor(id: string, options: WaitOptions = {}): Promise<Upload> {
    const deadline = Date.now() + (options.timeoutMs ?? 10 * 60_000);
    for (;;) {
      const upload = await this.get(id);
      if (upload.status !== "processing") return upload;
      if (Date.now() >= deadline) {
        throw new AdloomError({ code: "tool_error", status: 0, message: `Upload ${id} is still processing after ${options.timeoutMs ?? 600_000} ms` });
      }
      await new Promise((r) => setTimeout(r, options.intervalMs ?? 1000));
      options.signal?.throwIfAborted();
    }
  }
}

class CreativesResource {
  constructor(private readonly t: Transport) {}

  async list(options: ListOptions = {}): Promise<Page<Creative>> {
    const { data } = await this.t.request<{ creatives: Creative[]; nextCursor?: string | null }>("/api/v1/creatives", { query: { ...options } });
    return { items: data.creatives, nextCursor: data.nextCursor ?? null };
  }

  iterate(options: Omit<ListOptions, "cursor"> = {}): AsyncGenerator<Creative> {
    return paginate((cursor) => this.list({ ...options, cursor }));
  }

  /** Deletes 1 to 200 creatives; returns how many were deleted (unknown ids are skipped). */
  async delete(ids: string[], options: WriteOptions = {}): Promise<number> {
    return (await this.t.request<{ deleted: number }>("/api/v1/creatives", { method: "DELETE", json: { ids }, ...options })).data.deleted;
  }
}

class CopyResource {
  constructor(private readonly t: Transport) {}

  async list(creativeId: string, options: ListOptions = {}): Promise<Page<CopyVariant>> {
    const { data } = await this.t.request<{ copies: CopyVariant[]; nextCursor?: string | null }>(`/api/v1/creatives/${enc(creativeId)}/copy`, {
      query: { ...options },
    });
    return { items: data.copies, nextCursor: data.nextCursor ?? null };
  }

  iterate(creativeId: string, options: Omit<ListOptions, "cursor"> = {}): AsyncGenerator<CopyVariant> {
    return paginate((cursor) => this.list(creativeId, { ...options, cursor }));
  }

  /** Adds a copy variant; returns its id. */
  async add(creativeId: string, fields: CopyFields, options: WriteOptions = {}): Promise<{ id: string }> {
    return (await this.t.request<{ id: string }>(`/api/v1/creatives/${enc(creativeId)}/copy`, { method: "POST", json: fields, ...options })).data;
  }

  /** Changes fields of an existing variant (left-out fields stay; null clears). */
  async update(creativeId: string, id: string, fields: CopyFields, options: WriteOptions = {}): Promise<{ id: string }> {
    return (await this.t.request<{ id: string }>(`/api/v1/creatives/${enc(creativeId)}/copy`, { method: "POST", json: { ...fields, id }, ...options })).data;
  }

  async remove(creativeId: string, id: string, options: WriteOptions = {}): Promise<void> {
    await this.t.request(`/api/v1/creatives/${enc(creativeId)}/copy`, { method: "DELETE", json: { id }, ...options });
  }
}

class WebhooksResource {
  constructor(private readonly t: Transport) {}

  /** The endpoint, its secret, subscribed events and health; null when none is set. */
  async get(): Promise<WebhookEndpoint | null> {
    return (await this.t.request<{ webhook: WebhookEndpoint | null }>("/api/v1/webhooks")).data.webhook ?? null;
  }

  /** Creates the endpoint or changes its URL. */
  async setUrl(url: string, options: WriteOptions = {}): Promise<WebhookEndpoint> {
    return (await this.t.request<{ webhook: WebhookEndpoint }>("/api/v1/webhooks", { method: "PUT", json: { url }, ...options })).data.webhook;
  }

  /** Sets the subscribed event kinds; null means all. */
  async setEvents(events: string[] | null, options: WriteOptions = {}): Promise<WebhookEndpoint> {
    return (await this.t.request<{ webhook: WebhookEndpoint }>("/api/v1/webhooks", { method: "PATCH", json: { events }, ...options })).data.webhook;
  }

  async delete(options: WriteOptions = {}): Promise<void> {
    await this.t.request("/api/v1/webhooks", { method: "DELETE", ...options });
  }

  /** Fires a signed `test` event at the endpoint. */
  async test(options: WriteOptions = {}): Promise<{ event: { id: string; type: string; createdAt: string } }> {
    return (await this.t.request<{ event: { id: string; type: string; createdAt: string } }>("/api/v1/webhooks/test", { method: "POST", ...options })).data;
  }

  async deliveries(options: ListOptions & DeliveryFilters = {}): Promise<Page<WebhookDelivery>> {
    const { data } = await this.t.request<{ deliveries: WebhookDelivery[]; nextCursor: string | null }>("/api/v1/webhooks/deliveries", {
      query: { ...options },
    });
    return { items: data.deliveries, nextCursor: data.nextCursor ?? null };
  }

  iterateDeliveries(options: Omit<ListOptions, "cursor"> & DeliveryFilters = {}): AsyncGenerator<WebhookDelivery> {
    return paginate((cursor) => this.deliveries({ ...options, cursor }));
  }

  /** Re-sends a logged delivery (same event id and payload); returns the new attempt. */
  async redeliver(id: string, options: WriteOptions = {}): Promise<WebhookDelivery> {
    return (await this.t.request<{ delivery: WebhookDelivery }>(`/api/v1/webhooks/deliveries/${enc(id)}`, { method: "POST", ...options })).data.delivery;
  }
}

class ToolsResource {
  private cache: { etag: string; tools: Tool[] } | null = null;

  constructor(private readonly t: Transport) {}

  /** The catalog; revalidated with If-None-Match, so an unchanged catalog costs a 304. */
  async list(): Promise<Tool[]> {
    const response = await this.t.request<{ tools: Tool[] }>("/api/v1/tools", {
      headers: this.cache ? { "If-None-Match": this.cache.etag } : {},
      acceptStatus: [304],
    });
    if (response.status === 304 && this.cache) return this.cache.tools;
    const etag = response.headers.get("etag");
    this.cache = etag ? { etag, tools: response.data.tools } : null;
    return response.data.tools;
  }

  /**
   * Calls a tool by name: `call("list_creatives", { limit: 10 })` is typed by that tool's
   * schemas. Read-only tools are retried freely, others through their idempotency key.
   */
  async call<N extends string>(name: N, ...[args, options]: ToolCallArgs<N>): Promise<ToolCallResult<N>> {
    const json = (args ?? {}) as Record<string, unknown>;
    // A key given in the arguments is the request's Idempotency-Key (the server requires them to agree).
    const idempotencyKey = typeof json.idempotencyKey === "string" ? json.idempotencyKey : options?.idempotencyKey;
    const { data } = await this.t.request<{ result: ToolCallResult<N> }>(`/api/v1/tools/${enc(name)}`, {
      method: "POST",
      json,
      signal: options?.signal,
      idempotencyKey,
    });
    return data.result;
  }
}
