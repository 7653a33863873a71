import { AdloomError } from "./errors.js";
import { contentTypeFor, type FileInput } from "./multipart.js";
import type { Transport } from "./transport.js";
import type { Platform } from "./types.js";

/** Files larger than this go by the resumable (tus) endpoint in `uploads.upload` (bytes; 20 MiB). */
export const RESUMABLE_THRESHOLD_BYTES = 20 * 1024 * 1024;
const TUS_PATH = "/api/v1/uploads/tus";

/**
 * The part of `tus-js-client` (v4) this library drives, typed here: it is an optional peer
 * dependency, loaded only when a resumable upload is made, so the core stays dependency-free.
 */
export interface TusClientModule {
  Upload: new (
    file: any,
    options: any,
  ) => {
    url: string | null;
    start(): void;
    abort(shouldTerminate?: boolean): Promise<void>;
    findPreviousUploads(): Promise<unknown[]>;
    resumeFromPreviousUpload(previous: unknown): void;
  };
}

export interface ResumableUploadOptions {
  platform?: Platform | undefined;
  folderId?: string | undefined;
  /** A creative id: the file becomes that creative's next version (tus metadata `versionOf`). */
  versionOf?: string | undefined;
  /** Bytes sent so far, and the file's size. */
  onProgress?: ((sent: number, total: number) => void) | undefined;
  /** Bytes per PATCH (default: the whole rest of the file in one request, resumed from the server's offset if it breaks). */
  chunkSize?: number | undefined;
  /** Waits between retries after a failure (ms); default 0, 1 s, 3 s, 5 s, 10 s, 20 s. */
  retryDelays?: number[] | undefined;
  /** `tus-js-client` itself, when it cannot be imported by name (a bundle); imported on demand otherwise. */
  tus?: TusClientModule | undefined;
  /**
   * Remembers unfinished uploads so that a later run resumes them (tus-js-client's `urlStorage`,
   * e.g. its `FileUrlStorage` in Node); same-process retries resume without it.
   */
  urlStorage?: unknown;
  signal?: AbortSignal | undefined;
}

async function loadTus(given?: TusClientModule): Promise<TusClientModule> {
  if (given) return given;
  const specifier = "tus-js-client";
  try {
    return (await import(/* webpackIgnore: true */ /* @vite-ignore */ specifier)) as TusClientModule;
  } catch {
    throw new AdloomError({
      code: "invalid_request",
      status: 0,
      message: "Resumable uploads need tus-js-client: npm install tus-js-client@4 (or pass { tus })",
    });
  }
}

interface NodeFsStreams {
  promises: { stat(path: string): Promise<{ size: number; isFile(): boolean }> };
  createReadStream(path: string): unknown;
}

/** What tus-js-client reads: a path becomes a file stream it re-opens at any offset; bytes a Blob or Buffer. */
async function tusSource(input: FileInput): Promise<{ source: unknown; name: string; contentType: string; size: number | null }> {
  if (typeof input === "string" || "path" in input) {
    const { path, name, contentType } = typeof input === "string" ? { path: input, name: undefined, contentType: undefined } : input;
    const specifier = "node:fs";
    const fs = (await import(/* webpackIgnore: true */ /* @vite-ignore */ specifier)) as NodeFsStreams;
    const stat = await fs.promises.stat(path);
    if (!stat.isFile()) throw new Error(`${path} is not a file`);
    const fileName = name ?? (path.split(/[\\/]/).pop() || path);
    return { source: fs.createReadStream(path), name: fileName, contentType: contentType ?? contentTypeFor(fileName), size: stat.size };
  }
  if ("data" in input) {
    const g = globalThis as { Buffer?: { from(data: ArrayBuffer | Uint8Array): unknown } };
    const data = input.data;
    const source = data instanceof Blob ? data : g.Buffer ? g.Buffer.from(data as Uint8Array) : new Blob([data as BlobPart]);
    const size = data instanceof Blob ? data.size : data.byteLength;
    return { source, name: input.name, contentType: input.contentType ?? contentTypeFor(input.name), size };
  }
  return { source: input.stream, name: input.name, contentType: input.contentType ?? contentTypeFor(input.name), size: input.size ?? null };
}

/** Sends one file over tus; resolves with the processing upload it became (the final PATCH's answer, or the id from the upload's URL). */
export async function uploadResumable(t: Transport, input: FileInput, options: ResumableUploadOptions = {}): Promise<{ id: string; status: "processing" }> {
  const tus = await loadTus(options.tus);
  const { source, name, contentType, size } = await tusSource(input);
  if (size === null && !options.chunkSize) throw new Error(`${name}: a stream needs its size (and a chunkSize) for a resumable upload`);
  const metadata: Record<string, string> = { filename: name, filetype: contentType };
  if (options.platform) metadata.platform = options.platform;
  if (options.folderId) metadata.folderId = options.folderId;
  if (options.versionOf) metadata.versionOf = options.versionOf;
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(source, {
      endpoint: t.url(TUS_PATH),
      headers: t.authHeaders(),
      metadata,
      ...(size !== null ? { uploadSize: size } : {}),
      ...(options.chunkSize ? { chunkSize: options.chunkSize } : {}),
      retryDelays: options.retryDelays ?? [0, 1000, 3000, 5000, 10000, 20000],
      removeFingerprintOnSuccess: true,
      ...(options.urlStorage ? { urlStorage: options.urlStorage, storeFingerprintForResuming: true } : { storeFingerprintForResuming: false }),
      onProgress: (sent: number, total: number) => options.onProgress?.(sent, total),
      onSuccess: () => resolve({ id: upload.url!.split("/").pop()!, status: "processing" }),
      onError: (err: Error & { originalResponse?: { getStatus(): number; getBody(): string } | null }) => reject(toAdloomError(name, err)),
    });
    options.signal?.addEventListener("abort", () => {
      void upload.abort();
      reject(new AdloomError({ code: "invalid_request", status: 0, message: `Upload of ${name} aborted` }));
    });
    void upload
      .findPreviousUploads()
      .then((previous) => {
        if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
        upload.start();
      })
      .catch(reject);
  });
}

function toAdloomError(name: string, err: Error & { originalResponse?: { getStatus(): number; getBody(): string } | null }): AdloomError {
  const response = err.originalResponse;
  if (response) {
    try {
      const body = JSON.parse(response.getBody()) as { error?: { code?: string; message?: string } };
      if (body.error?.message) {
        return new AdloomError({ code: (body.error.code ?? "invalid_request") as never, status: response.getStatus(), message: body.error.message });
      }
    } catch {
      /* not JSON */
    }
  }
  // No HTTP answer at all: the server could not be reached (the CLI's exit code 5), as for every other call.
  if (!response) return new AdloomError({ code: "network_error", status: 0, message: `Resumable upload of ${name} failed: ${err.message}` });
  return new AdloomError({ code: "internal_error", status: response.getStatus(), message: `Resumable upload of ${name} failed: ${err.message}` });
}

/** The size of a file input when it can be known without reading it (null for a stream of unknown length). */
export async function sizeOf(input: FileInput): Promise<number | null> {
  if (typeof input === "string" || "path" in input) {
    const specifier = "node:fs";
    const fs = (await import(/* webpackIgnore: true */ /* @vite-ignore */ specifier)) as NodeFsStreams;
    return (await fs.promises.stat(typeof input === "string" ? input : input.path)).size;
  }
  if ("data" in input) return input.data instanceof Blob ? input.data.size : input.data.byteLength;
  return input.size ?? null;
}
