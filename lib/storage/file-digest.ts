import os from "node:os";
import { Worker } from "node:worker_threads";
import { defineService } from "@/lib/services";

export type DigestAlgorithm = "md5" | "sha256";

/** A file's digest (hex), its size and its first bytes (for a signature check). */
export interface FileDigest {
  digest: string;
  sizeBytes: number;
  head: Buffer;
}

/**
 * The worker's program, evaluated as a script (no file to find in a bundled build): reads a local
 * file in 1 MB chunks and hashes it, answering { id, digest, sizeBytes, head } or { id, error }.
 */
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const { createReadStream } = require("node:fs");
parentPort.on("message", async ({ id, path, algorithm, headBytes }) => {
  try {
    const hash = createHash(algorithm);
    let sizeBytes = 0;
    const head = [];
    let headLength = 0;
    for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
      hash.update(chunk);
      sizeBytes += chunk.length;
      if (headLength < headBytes) {
        const part = chunk.subarray(0, headBytes - headLength);
        head.push(Buffer.from(part));
        headLength += part.length;
      }
    }
    parentPort.postMessage({ id, digest: hash.digest("hex"), sizeBytes, head: Buffer.concat(head) });
  } catch (err) {
    parentPort.postMessage({ id, error: { message: String(err && err.message), code: err && err.code } });
  }
});
`;

type Pending = { resolve: (value: FileDigest) => void; reject: (err: Error) => void; worker: number };

/**
 * Whole-file digests on worker threads: hashing a 200 MB video took the main thread ~0.3 s (MD5)
 * in 1 MB slices, time every request in flight then waited behind (docs/performance.md, bench:upload).
 * Two workers at most; each takes any number of files (their reads interleave). A worker keeps the
 * process alive only while it holds a file (a script awaiting a digest is not cut short).
 */
class DigestWorkers {
  private readonly workers: (Worker | undefined)[] = [];
  private readonly held: number[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closed = false;

  constructor(private readonly size: number) {}

  digest(path: string, algorithm: DigestAlgorithm, headBytes: number): Promise<FileDigest> {
    if (this.closed) return Promise.reject(new Error("The digest workers were stopped"));
    const id = this.nextId++;
    const index = id % this.size;
    const worker = this.workers[index] ?? this.start(index);
    return new Promise<FileDigest>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, worker: index });
      if ((this.held[index] = (this.held[index] ?? 0) + 1) === 1) worker.ref();
      worker.postMessage({ id, path, algorithm, headBytes });
    });
  }

  private start(index: number): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, name: "adloom-file-digest" });
    worker.unref();
    worker.on("message", (message: { id: number; digest?: string; sizeBytes?: number; head?: Uint8Array; error?: { message: string; code?: string } }) => {
      const waiting = this.take(message.id);
      if (!waiting) return;
      if (message.error) waiting.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
      else waiting.resolve({ digest: message.digest!, sizeBytes: message.sizeBytes!, head: Buffer.from(message.head!) });
    });
    // A worker that dies fails what it held; the next file starts a new one.
    worker.on("error", (err) => this.retire(index, worker, err));
    worker.on("exit", (code) => this.retire(index, worker, new Error(`The digest worker exited (code ${code})`)));
    this.workers[index] = worker;
    return worker;
  }

  private take(id: number): Pending | undefined {
    const waiting = this.pending.get(id);
    if (!waiting) return undefined;
    this.pending.delete(id);
    if (--this.held[waiting.worker]! === 0) this.workers[waiting.worker]?.unref();
    return waiting;
  }

  private retire(index: number, worker: Worker, err: Error): void {
    if (this.workers[index] !== worker) return;
    this.workers[index] = undefined;
    for (const [id, waiting] of this.pending) if (waiting.worker === index) this.take(id)?.reject(err);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((w) => w?.terminate()));
  }
}

const workers = defineService(
  "storage.file-digest",
  () => new DigestWorkers(Math.max(1, Math.min(2, os.availableParallelism()))),
  (w) => w.close(),
);

/** Digest, size and first `headBytes` bytes of a local file, read and hashed off the main thread. ENOENT rejects with that code. */
export function digestFile(path: string, algorithm: DigestAlgorithm, headBytes = 0): Promise<FileDigest> {
  return workers().digest(path, algorithm, headBytes);
}
