import path from "node:path";
import { Worker } from "node:worker_threads";
import type { ExecProtocolOptions, ExecProtocolResult, Transaction } from "@electric-sql/pglite";
import { BasePGlite, DatabaseError, installArrayTypeCodecs, Mutex, NoticeMessage, NotificationResponseMessage, type BackendMessage } from "../pglite-internals";
import { parseResponse } from "./parse-response";

/**
 * The embedded database on a thread of its own.
 *
 * PGlite is PostgreSQL compiled to WebAssembly: every statement runs on the thread that calls it.
 * On the main thread that is CPU the HTTP server and the job runner cannot use (about a third of
 * it under webhook load). Here PGlite runs in a worker thread (./worker.mjs) and this class, on the
 * main thread, is the same PGlite API (it extends PGlite's own base class, which implements
 * query/exec/transaction on top of the wire protocol): each protocol message goes to the worker
 * and its response bytes come back to be parsed here. So results, DatabaseError, notices and
 * LISTEN/NOTIFY behave exactly as in-thread: a notification is delivered before the statement that
 * caused it returns.
 */

type Pending = { resolve(data: Uint8Array): void; reject(err: Error): void };
type Listener = (payload: string) => void;

// Relative to the project root, like the migrations folder: the server, the CLI and the tests run from there.
const WORKER_SCRIPT = path.resolve("packages/pglite-driver/src/thread/worker.mjs");

export class ThreadedPGlite extends BasePGlite {
  debug = 0 as const;
  private worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private readonly queryMutex = new Mutex();
  private readonly transactionMutex = new Mutex();
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly started: Promise<void>;
  readonly waitReady: Promise<void>;
  private isReady = false;
  private isClosed = false;
  private failure: Error | null = null;

  constructor(dataDir: string) {
    super();
    this.worker = this.startThread(dataDir);
    this.started = this.firstAnswer()
      .then(async (answer) => {
        // A new data directory: the thread created the cluster, closed it and is replaced. PGlite creates a cluster by
        // running initdb as a second WebAssembly instance, whose memory stays until this thread's V8 collects it, and
        // a thread that allocates as little JavaScript as this one may never do so. A server's first start (`npm start`
        // on an empty DATA_DIR) went from 653–663 to 569–580 MB of RSS (on Node 20, 915 to 540), for a second more.
        if (answer.created) {
          await this.retire(this.worker);
          this.worker = this.startThread(dataDir);
          answer = await this.firstAnswer();
        }
        if (!answer.ready) throw new Error(`The embedded database could not start: ${answer.error?.message}`);
      })
      .then(() => this.worker.on("message", (m: { id: number; data?: Uint8Array; error?: { message: string } }) => this.settle(m)))
      .then(() => installArrayTypeCodecs(this, async (message) => (await this.execProtocol(message, { syncToFs: false })).messages))
      .then(() => {
        this.isReady = true;
      });
    this.started.catch((err: Error) => this.fail(err));
    this.waitReady = this.started;
  }

  private startThread(dataDir: string): Worker {
    const worker = new Worker(WORKER_SCRIPT, { workerData: { dataDir } });
    // Idle, the thread does not keep the process alive (a CLI run ends when its work does).
    worker.unref();
    worker.on("error", (err) => this.fail(err));
    worker.on("exit", (code) => this.fail(new Error(`The embedded database thread exited (code ${code})`)));
    return worker;
  }

  /** The thread's first message: ready, or the cluster it created, or why it could not start. */
  private firstAnswer(): Promise<{ ready: boolean; created?: boolean; error?: { message: string } }> {
    const worker = this.worker;
    return new Promise((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("exit", (code) => reject(new Error(`The embedded database thread exited (code ${code}) before it was ready`)));
    });
  }

  /** Ends a thread whose exit is expected (not a failure of the database). */
  private async retire(worker: Worker): Promise<void> {
    worker.removeAllListeners("exit");
    worker.removeAllListeners("error");
    await worker.terminate();
  }

  get ready(): boolean {
    return this.isReady;
  }
  get closed(): boolean {
    return this.isClosed;
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    await this.transactionMutex.runExclusive(() =>
      this.queryMutex.runExclusive(async () => {
        this.isClosed = true;
        await this.call({ type: "close" }).catch(() => undefined);
        await this.worker.terminate();
      }),
    );
  }

  /**
   * The data directory as a gzipped tarball (PGlite's dumpDataDir), taken between transactions:
   * both locks are held, so no statement or transaction is half done in it.
   */
  async dumpDataDir(): Promise<File> {
    await this._checkReady();
    const data = await this.transactionMutex.runExclusive(() => this.queryMutex.runExclusive(() => this.call({ type: "dump" })));
    return new File([data as Uint8Array<ArrayBuffer>], "pgdata.tar.gz", { type: "application/x-gzip" });
  }

  async execProtocolRaw(message: Uint8Array, { syncToFs = true }: { syncToFs?: boolean } = {}): Promise<Uint8Array> {
    return this.call({ type: "protocol", message, syncToFs });
  }

  async execProtocol(message: Uint8Array, { syncToFs = true, throwOnError = true, onNotice }: ExecProtocolOptions = {}): Promise<ExecProtocolResult> {
    const data = await this.execProtocolRaw(message, { syncToFs });
    const messages: BackendMessage[] = [];
    let error: Error | null = null;
    // As PGlite does: messages after an error are dropped, notices go to onNotice, notifications to listeners.
    parseResponse(data, (msg: BackendMessage) => {
      if (error) return;
      if (msg instanceof DatabaseError) {
        if (throwOnError) error = msg;
      } else if (msg instanceof NoticeMessage) {
        onNotice?.(msg);
      } else if (msg instanceof NotificationResponseMessage) {
        this.notify(msg);
      }
      messages.push(msg);
    });
    if (error) throw error;
    return { messages, data };
  }

  async execProtocolStream(message: Uint8Array, options: ExecProtocolOptions = {}): Promise<BackendMessage[]> {
    return (await this.execProtocol(message, options)).messages;
  }

  async execProtocolRawStream(
    message: Uint8Array,
    { syncToFs = true, onRawData }: { syncToFs?: boolean; onRawData: (data: Uint8Array) => void },
  ): Promise<void> {
    onRawData(await this.execProtocolRaw(message, { syncToFs }));
  }

  async syncToFs(): Promise<void> {
    await this.call({ type: "syncToFs" });
  }

  async listen(channel: string, callback: Listener, tx?: Transaction): Promise<(tx?: Transaction) => Promise<void>> {
    const name = postgresName(channel);
    if (!this.listeners.has(name)) this.listeners.set(name, new Set());
    this.listeners.get(name)!.add(callback);
    try {
      await (tx ?? this).exec(`LISTEN ${channel}`);
    } catch (err) {
      this.removeListener(name, callback);
      throw err;
    }
    return async (unlistenTx?: Transaction) => {
      if (this.removeListener(name, callback)) await (unlistenTx ?? this).exec(`UNLISTEN ${channel}`);
    };
  }

  // Blobs (COPY ... TO/FROM '/dev/blob') are not carried across the thread.
  async _handleBlob(blob?: Blob): Promise<void> {
    if (blob) throw new Error("COPY with a blob is not supported by the threaded embedded database");
  }
  async _getWrittenBlob(): Promise<undefined> {
    return undefined;
  }
  async _cleanupBlob(): Promise<void> {}

  async _checkReady(): Promise<void> {
    if (this.isClosed) throw new Error("The embedded database is closed");
    await this.started;
  }
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T> {
    return this.queryMutex.runExclusive(fn);
  }
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.transactionMutex.runExclusive(fn);
  }

  private call(request: { type: string; message?: Uint8Array; syncToFs?: boolean }): Promise<Uint8Array> {
    if (this.failure) return Promise.reject(this.failure);
    const id = ++this.nextId;
    return new Promise<Uint8Array>((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...request });
    });
  }

  private settle(reply: { id: number; data?: Uint8Array; error?: { message: string } }): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.error) pending.reject(new Error(reply.error.message));
    else pending.resolve(reply.data ?? new Uint8Array(0));
  }

  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = this.isClosed ? new Error("The embedded database is closed") : err;
    if (!this.isClosed) console.error(`[adloom] ${err.message}`);
    for (const { reject } of this.pending.values()) reject(this.failure);
    this.pending.clear();
  }

  private notify(msg: NotificationResponseMessage): void {
    for (const listener of this.listeners.get(msg.channel) ?? []) queueMicrotask(() => listener(msg.payload));
  }

  private removeListener(name: string, callback: Listener): boolean {
    const set = this.listeners.get(name);
    set?.delete(callback);
    if (set && set.size === 0) {
      this.listeners.delete(name);
      return true;
    }
    return false;
  }
}

/** How PostgreSQL names an identifier: unquoted ones are folded to lower case. */
function postgresName(channel: string): string {
  return channel.startsWith('"') && channel.endsWith('"') ? channel.slice(1, -1) : channel.toLowerCase();
}
