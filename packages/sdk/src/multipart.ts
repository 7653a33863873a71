/** A file to upload: a path on disk (Node), bytes in memory, or a stream. */
export type FileInput =
  | string
  | { path: string; name?: string | undefined; contentType?: string | undefined }
  | { data: Uint8Array | ArrayBuffer | Blob; name: string; contentType?: string | undefined }
  | {
      stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;
      name: string;
      contentType?: string | undefined;
      size?: number | undefined;
    };

/** The part of node:fs that uploading from a path needs (typed here: the library carries no Node types). */
interface NodeFs {
  promises: { stat(path: string): Promise<{ size: number; isFile(): boolean }> };
  createReadStream(path: string, options: { highWaterMark: number }): AsyncIterable<Uint8Array>;
}

/** A browser page or worker (where there is no node:fs, and request bodies cannot be streamed over HTTP/1.1). */
function inBrowser(): boolean {
  const g = globalThis as { document?: unknown; importScripts?: unknown };
  return g.document !== undefined || typeof g.importScripts === "function";
}

/** node:fs, loaded only when a path is given, so browsers and edge runtimes never ask for it. */
async function loadFs(): Promise<NodeFs> {
  const specifier = "node:fs";
  try {
    // A browser would try to fetch "node:fs" as a script and log a blocked request: do not ask.
    if (inBrowser()) throw new Error("no file system");
    return (await import(/* webpackIgnore: true */ /* @vite-ignore */ specifier)) as NodeFs;
  } catch {
    throw new Error("Uploading from a file path needs node:fs (Node, Deno, Bun); pass { data } or { stream } instead");
  }
}

export interface UploadProgress {
  /** Position of the file in the request. */
  index: number;
  fileName: string;
  /** Bytes of this file sent so far. */
  loaded: number;
  /** The file's size, when known. */
  total: number | null;
}

interface PreparedFile {
  name: string;
  contentType: string;
  size: number | null;
  /** The bytes as a Blob when they already are one (bytes in memory), so a Blob body needs no copy. */
  blob?: Blob | undefined;
  /** Opens the file's bytes (again, for a retry; null for one-shot streams). */
  open: () => Promise<AsyncIterable<Uint8Array>>;
  replayable: boolean;
}

const TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  heic: "image/heic",
  bmp: "image/bmp",
  tif: "image/tiff",
  tiff: "image/tiff",
  svg: "image/svg+xml",
  mp4: "video/mp4",
  m4v: "video/x-m4v",
  mov: "video/quicktime",
  webm: "video/webm",
  mkv: "video/x-matroska",
  avi: "video/x-msvideo",
};

/** A MIME type guessed from the file name (the server checks the bytes anyway). */
export function contentTypeFor(name: string): string {
  return TYPES[name.split(".").pop()?.toLowerCase() ?? ""] ?? "application/octet-stream";
}

function baseName(p: string): string {
  return p.split(/[\\/]/).pop() || p;
}

async function* chunksOf(blob: Blob): AsyncIterable<Uint8Array> {
  const reader = blob.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

async function* streamChunks(stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  if (Symbol.asyncIterator in stream) {
    yield* stream as AsyncIterable<Uint8Array>;
    return;
  }
  const reader = (stream as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

/** Resolves inputs to names, types, sizes and openers; reads nothing yet. */
export async function prepareFiles(inputs: FileInput[]): Promise<PreparedFile[]> {
  return Promise.all(
    inputs.map(async (input): Promise<PreparedFile> => {
      if (typeof input === "string" || "path" in input) {
        const { path, name, contentType } = typeof input === "string" ? { path: input, name: undefined, contentType: undefined } : input;
        const fs = await loadFs();
        const stat = await fs.promises.stat(path);
        if (!stat.isFile()) throw new Error(`${path} is not a file`);
        const fileName = name ?? baseName(path);
        return {
          name: fileName,
          contentType: contentType ?? contentTypeFor(fileName),
          size: stat.size,
          open: async () => fs.createReadStream(path, { highWaterMark: 256 * 1024 }),
          replayable: true,
        };
      }
      if ("data" in input) {
        const blob = input.data instanceof Blob ? input.data : new Blob([input.data as BlobPart]);
        return {
          name: input.name,
          contentType: input.contentType ?? contentTypeFor(input.name),
          size: blob.size,
          blob,
          open: async () => chunksOf(blob),
          replayable: true,
        };
      }
      let used = false;
      return {
        name: input.name,
        contentType: input.contentType ?? contentTypeFor(input.name),
        size: input.size ?? null,
        open: async () => {
          if (used) throw new Error(`The stream of ${input.name} was already consumed`);
          used = true;
          return streamChunks(input.stream);
        },
        replayable: false,
      };
    }),
  );
}

const encoder = new TextEncoder();

/** A header-safe quoted file name (the HTML form-encoding rules: quotes and newlines percent-encoded). */
function quote(value: string): string {
  return value.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

const fieldPart = (boundary: string, name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHead = (boundary: string, fileField: string, file: PreparedFile) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="${quote(file.name)}"\r\nContent-Type: ${file.contentType}\r\n\r\n`;
const closing = (boundary: string) => `--${boundary}--\r\n`;

/**
 * Whether this runtime's fetch can send a streamed request body to any server. Node, Deno, Bun
 * and edge runtimes can; browsers cannot over HTTP/1.1 (Chromium refuses a stream body without
 * HTTP/2 or QUIC, Firefox and Safari do not stream request bodies at all), so there the body is a Blob.
 */
export function canStreamRequestBodies(): boolean {
  return !inBrowser();
}

/**
 * The multipart/form-data body as a stream: fields first, then each file read chunk by
 * chunk as the network takes it, so a 200 MB file never sits in memory.
 */
export function multipartStream(
  boundary: string,
  fields: Record<string, string | undefined>,
  files: PreparedFile[],
  fileField: string,
  onProgress?: ((p: UploadProgress) => void) | undefined,
): ReadableStream<Uint8Array> {
  async function* parts(): AsyncGenerator<Uint8Array> {
    for (const [name, value] of Object.entries(fields)) {
      if (value !== undefined) yield encoder.encode(fieldPart(boundary, name, value));
    }
    for (const [index, file] of files.entries()) {
      yield encoder.encode(fileHead(boundary, fileField, file));
      let loaded = 0;
      onProgress?.({ index, fileName: file.name, loaded, total: file.size });
      for await (const chunk of await file.open()) {
        const bytes = chunk instanceof Uint8Array ? chunk : new Uint8Array(chunk as ArrayBuffer);
        yield bytes;
        loaded += bytes.byteLength;
        onProgress?.({ index, fileName: file.name, loaded, total: file.size });
      }
      yield encoder.encode("\r\n");
    }
    yield encoder.encode(closing(boundary));
  }
  const iterator = parts();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await iterator.return(undefined);
    },
  });
}

/**
 * The same body as one Blob, for runtimes that cannot stream a request body (browsers). Files
 * given as bytes or Blobs (a browser's File) are referenced, not copied; a stream is read into
 * memory first. Fetch reports no upload progress, so each file's progress is told when the body
 * is built (nothing sent) and, through the returned `sent`, once the server has answered.
 */
export async function multipartBlob(
  boundary: string,
  fields: Record<string, string | undefined>,
  files: PreparedFile[],
  fileField: string,
  onProgress?: ((p: UploadProgress) => void) | undefined,
): Promise<{ body: Blob; sent: () => void }> {
  const parts: BlobPart[] = [];
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) parts.push(fieldPart(boundary, name, value));
  const sizes: number[] = [];
  for (const [index, file] of files.entries()) {
    let blob = file.blob;
    if (!blob) {
      const chunks: BlobPart[] = [];
      for await (const chunk of await file.open()) chunks.push(chunk as BlobPart);
      blob = new Blob(chunks);
    }
    sizes.push(blob.size);
    onProgress?.({ index, fileName: file.name, loaded: 0, total: blob.size });
    parts.push(fileHead(boundary, fileField, file), blob, "\r\n");
  }
  parts.push(closing(boundary));
  const sent = () => {
    for (const [index, file] of files.entries()) onProgress?.({ index, fileName: file.name, loaded: sizes[index]!, total: sizes[index]! });
  };
  return { body: new Blob(parts), sent };
}
