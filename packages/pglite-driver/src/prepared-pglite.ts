import type { PGlite, QueryOptions, Results, Transaction } from "@electric-sql/pglite";
import { DatabaseError, internalsOf, NoticeMessage, parseResults, serialize, type BackendMessage, type PgliteInternals } from "./pglite-internals";

/**
 * PGlite with a server-side prepared statement per distinct SQL text.
 *
 * PGlite's own `query()` parses and plans every statement again, in six separate protocol round
 * trips; for the statements the service repeats all day that is most of their cost (a typical
 * hot-path statement runs 4–5 times faster prepared: see docs/database.md). Here the first call of a
 * text prepares it under a name (Parse + Describe), and every call binds and executes that name in
 * one protocol message; statements that wait while one is out are sent together (pipelined).
 * Results, errors (the same DatabaseError) and LISTEN/NOTIFY behave as with `query()`, and the same
 * locks are taken, so it is a drop-in replacement for every caller, Prisma's adapter included.
 */
export function withPreparedStatements(db: PGlite, options: { maxStatements?: number } = {}): PGlite {
  const statements = new StatementCache(internalsOf(db), options.maxStatements ?? 1000);
  const query = (text: string, params: unknown[] | undefined, opts: QueryOptions | undefined, inTransaction: boolean) =>
    opts?.blob ? null : statements.query(text, params ?? [], opts, inTransaction);

  const overrides: Record<string | symbol, unknown> = {
    query: (text: string, params?: unknown[], opts?: QueryOptions) => query(text, params, opts, false) ?? db.query(text, params, opts),
    transaction: <T>(callback: (tx: Transaction) => Promise<T>) =>
      db.transaction((tx) => callback(preparedTransaction(tx, (text, params, opts) => query(text, params, opts, true) ?? tx.query(text, params, opts)))),
  };
  // PGlite keeps its state in #private fields: its methods must run with the real instance as `this`
  // (bound once each, not on every access: the adapter reaches them on every statement).
  const bound = new Map<string | symbol, unknown>();
  return new Proxy(db, {
    get(target, prop) {
      if (prop in overrides) return overrides[prop];
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== "function") return value;
      if (!bound.has(prop)) bound.set(prop, (value as (...args: unknown[]) => unknown).bind(target));
      return bound.get(prop);
    },
  });
}

type QueryFn = (text: string, params?: unknown[], opts?: QueryOptions) => Promise<Results<unknown>>;

function preparedTransaction(tx: Transaction, query: QueryFn): Transaction {
  const wrapped = Object.create(tx) as Transaction;
  wrapped.query = <T>(text: string, params?: unknown[], opts?: QueryOptions) => {
    if (tx.closed) return Promise.reject(new Error("Transaction is closed"));
    return query(text, params, opts) as Promise<Results<T>>;
  };
  return wrapped;
}

interface Statement {
  name: string;
  text: string;
  /** Planned at every execution (see PLANNED_PER_EXECUTION). */
  customPlan: boolean;
  paramTypes: number[];
  /** The statement's RowDescription (absent for statements returning no rows). */
  rowDescription: BackendMessage | undefined;
}

interface QueuedQuery {
  text: string;
  params: unknown[];
  options: QueryOptions | undefined;
  resolve(result: Results<unknown>): void;
  reject(err: unknown): void;
}

// SQLSTATEs meaning the named statement is unusable (its plan's result type changed after DDL,
// or the session lost it): prepare the text again.
const STALE_STATEMENT = new Set(["0A000", "26000"]);

// A generic plan cannot know how many rows a parameterized LIMIT wants, and PostgreSQL may switch
// such a statement to one that is much worse for small pages (GET /api/v1/creatives lost 10%):
// those are parsed and planned for their values each time, still in the one protocol call.
const PLANNED_PER_EXECUTION = /\b(LIMIT|OFFSET)\s+\$\d/i;

/** Statements sent to the database in one protocol call at most. */
const MAX_PIPELINE = 64;

class StatementCache {
  /** Insertion order is recency order: a hit moves its entry to the end. */
  private readonly byText = new Map<string, Statement>();
  private readonly toClose: string[] = [];
  private sequence = 0;
  private readonly queue: QueuedQuery[] = [];
  private draining = false;

  constructor(
    private readonly db: PgliteInternals,
    private readonly max: number,
  ) {}

  async query(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<unknown>> {
    await this.db._checkReady();
    // In a transaction the caller holds the transaction lock and issues one statement at a time.
    if (inTransaction)
      return this.db._runExclusiveQuery(() =>
        this.executeOne(text, params, options, true).catch((err) => Promise.reject(annotated(err, text, params, options))),
      );
    return new Promise((resolve, reject) => {
      this.queue.push({ text, params, options, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  /**
   * Runs the queued statements. Statements queued while a call is out go together in the next one
   * (pipelined: each is Bind/Execute/Sync, so each still runs in its own implicit transaction and an
   * error in one leaves the others alone), which saves the round trip per statement under load.
   */
  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, MAX_PIPELINE);
        // Outside a transaction, wait for any open one (as query() does) so these cannot run inside it.
        await this.db._runExclusiveTransaction(() => this.db._runExclusiveQuery(() => this.runPipeline(batch)));
      }
    } finally {
      this.draining = false;
    }
  }

  private async runPipeline(batch: QueuedQuery[]): Promise<void> {
    const sent: { query: QueuedQuery; statement: Statement }[] = [];
    const parts: Uint8Array[] = [];
    for (const query of batch) {
      try {
        const statement = await this.prepare(query.text, query.options);
        parts.push(...this.execution(statement, query.params, query.options));
        sent.push({ query, statement });
      } catch (err) {
        query.reject(annotated(err, query.text, query.params, query.options));
      }
    }
    if (!sent.length) return;

    let response: BackendMessage[];
    try {
      response = await this.db.execProtocolStream(concat(parts), { syncToFs: true, throwOnError: false });
    } catch (err) {
      for (const { query } of sent) query.reject(err);
      return;
    }
    // Each statement's answer ends with its ReadyForQuery.
    let first = 0;
    for (const { query, statement } of sent) {
      let end = first;
      while (end < response.length && response[end]!.name !== "readyForQuery") end++;
      const answer = response.slice(first, end + 1);
      first = end + 1;
      const error = answer.find((m) => m instanceof DatabaseError) as BackendMessage | undefined;
      if (!error) {
        for (const notice of answer) if (notice instanceof NoticeMessage) query.options?.onNotice?.(notice);
        query.resolve(this.toResults(statement, answer, query.options));
      } else if (STALE_STATEMENT.has(error.code ?? "") && this.forget(query.text)) {
        await this.executeOne(query.text, query.params, query.options, false).then(query.resolve, (err) =>
          query.reject(annotated(err, query.text, query.params, query.options)),
        );
      } else {
        query.reject(annotated(error, query.text, query.params, query.options));
      }
    }
  }

  /** One statement on its own (in a transaction, or again after its statement went stale); the caller holds the locks. */
  private async executeOne(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<unknown>> {
    const run = async () => {
      const statement = await this.prepare(text, options);
      const answer = await this.db.execProtocolStream(
        concat(this.execution(statement, params, options)),
        // Outside a transaction the write is flushed as query() would, in the same call.
        { syncToFs: !inTransaction, onNotice: options?.onNotice },
      );
      return this.toResults(statement, answer, options);
    };
    try {
      return await run();
    } catch (err) {
      // Inside a transaction the error has aborted it: only the caller can start again.
      if (inTransaction || !STALE_STATEMENT.has((err as BackendMessage).code ?? "") || !this.forget(text)) throw err;
      return run();
    }
  }

  private async prepare(text: string, options: QueryOptions | undefined): Promise<Statement> {
    const cached = this.byText.get(text);
    if (cached) {
      this.byText.delete(text);
      this.byText.set(text, cached);
      return cached;
    }
    const name = `adloom_${++this.sequence}`;
    const answer = await this.db.execProtocolStream(
      concat([
        ...this.toClose.splice(0).map((old) => serialize.close({ type: "S", name: old })),
        serialize.parse({ name, text, types: options?.paramTypes }),
        serialize.describe({ type: "S", name }),
        serialize.sync(),
      ]),
      { syncToFs: false, onNotice: options?.onNotice },
    );
    const statement: Statement = {
      name,
      text,
      customPlan: PLANNED_PER_EXECUTION.test(text),
      paramTypes: answer.find((m) => m.name === "parameterDescription")?.dataTypeIDs ?? [],
      rowDescription: answer.find((m) => m.name === "rowDescription"),
    };
    this.byText.set(text, statement);
    if (this.byText.size > this.max) {
      const [oldestText, oldest] = this.byText.entries().next().value as [string, Statement];
      this.byText.delete(oldestText);
      this.toClose.push(oldest.name);
    }
    return statement;
  }

  /**
   * The messages that execute a statement once: Bind (parameters serialized as query() does, by the
   * types the statement declares), Execute, Sync; for a statement planned per execution, an unnamed
   * Parse with those types first.
   */
  private execution(statement: Statement, params: unknown[], options: QueryOptions | undefined): Uint8Array[] {
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.paramTypes[i]!;
      const serialize = options?.serializers?.[type] ?? this.db.serializers[type];
      return serialize ? serialize(value) : String(value);
    });
    const bind = [serialize.bind({ statement: statement.customPlan ? "" : statement.name, values }), serialize.execute({}), serialize.sync()];
    return statement.customPlan ? [serialize.parse({ name: "", text: statement.text, types: statement.paramTypes }), ...bind] : bind;
  }

  private toResults(statement: Statement, answer: BackendMessage[], options: QueryOptions | undefined): Results<unknown> {
    const described = statement.rowDescription ? [statement.rowDescription, ...answer] : answer;
    // parseResults copies every parser into a new object when a query brings its own (Prisma's
    // adapter always does): merge once per parser set instead.
    const parsers = options?.parsers ? this.mergedParsers(options.parsers) : this.db.parsers;
    const parseOptions = options?.parsers ? { ...options, parsers: undefined } : options;
    return parseResults(described, parsers, parseOptions)[0]!;
  }

  private readonly merged = new WeakMap<object, PgliteInternals["parsers"]>();

  private mergedParsers(own: NonNullable<QueryOptions["parsers"]>): PgliteInternals["parsers"] {
    let merged = this.merged.get(own);
    if (!merged) this.merged.set(own, (merged = { ...this.db.parsers, ...own }));
    return merged;
  }

  /** Drops a text's statement (closed with the next preparation); false when it was not cached. */
  private forget(text: string): boolean {
    const statement = this.byText.get(text);
    if (!statement) return false;
    this.byText.delete(text);
    this.toClose.push(statement.name);
    return true;
  }
}

/** Like query(): a database error carries the statement it came from. */
function annotated(err: unknown, query: string, params: unknown[], queryOptions: QueryOptions | undefined): unknown {
  if (err && typeof err === "object" && "code" in err) Object.assign(err, { query, params, queryOptions });
  return err;
}

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
