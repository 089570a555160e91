import { Worker } from "node:worker_threads";
import { WORKER_YOUNG_GENERATION_MB } from "../lib/worker-heap.js";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from "kysely";

interface WorkerReply {
  id: number;
  ok: boolean;
  rows?: unknown[];
  affectedRows?: number;
  /** More rows follow: ask for them with { type: "more", id } (pglite-worker.js). */
  more?: boolean;
  error?: { message: string; code?: string; detail?: string; constraint?: string };
}

/** An error from PGlite that keeps PostgreSQL's SQLSTATE code, as pg's errors do. */
export class PgliteQueryError extends Error {
  code?: string;
  detail?: string;
  constraint?: string;
  constructor(e: NonNullable<WorkerReply["error"]>) {
    super(e.message);
    this.name = "PgliteQueryError";
    this.code = e.code;
    this.detail = e.detail;
    this.constraint = e.constraint;
  }
}

export interface PgliteWorkerOptions {
  dataDir?: string | undefined;
  relaxedDurability?: boolean | undefined;
  sharedBuffers?: string | undefined;
  /** A data folder tarball (dumpDataDir) to begin with instead of an empty database. */
  startFrom?: Uint8Array | undefined;
}

/**
 * Runs PGlite in a worker thread so that query work never blocks the event loop.
 * PGlite has a single session, so the driver hands out one connection at a time.
 */
export class PgliteWorkerClient {
  private worker: Worker;
  private nextId = 1;
  private pending = new Map<number, (r: WorkerReply) => void>();
  private listeners = new Map<string, Set<(payload: string) => void>>();
  readonly ready: Promise<void>;

  constructor(options: PgliteWorkerOptions = {}) {
    this.worker = new Worker(new URL("./pglite-worker.js", import.meta.url), {
      workerData: options,
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    this.ready = new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.worker.once("error", onError);
      this.worker.on("message", (msg: WorkerReply & { type?: string; channel?: string; payload?: string }) => {
        if (msg.type === "notification") {
          for (const fn of this.listeners.get(msg.channel ?? "") ?? []) fn(msg.payload ?? "");
          return;
        }
        if (msg.type === "ready") {
          this.worker.off("error", onError);
          resolve();
          return;
        }
        const done = this.pending.get(msg.id);
        if (done) {
          this.pending.delete(msg.id);
          done(msg);
        }
      });
    });
    this.worker.on("error", (err) => {
      for (const done of this.pending.values()) {
        done({ id: 0, ok: false, error: { message: `Embedded database failed: ${err.message}` } });
      }
      this.pending.clear();
    });
  }

  private send(msg: Record<string, unknown>, id = this.nextId++): Promise<WorkerReply> {
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.postMessage({ ...msg, id });
    });
  }

  async query<R>(sql: string, params: readonly unknown[]): Promise<{ rows: R[]; affectedRows: number }> {
    const id = this.nextId++;
    let reply = await this.send({ type: "query", sql, params }, id);
    if (!reply.ok) throw new PgliteQueryError(reply.error ?? { message: "Unknown database error" });
    const rows = (reply.rows ?? []) as R[];
    const affectedRows = reply.affectedRows ?? 0;
    while (reply.more) {
      // Other requests run between two slices of a large result.
      await new Promise((resolve) => setImmediate(resolve));
      reply = await this.send({ type: "more" }, id);
      if (!reply.ok) throw new PgliteQueryError(reply.error ?? { message: "Unknown database error" });
      for (const row of (reply.rows ?? []) as R[]) rows.push(row);
    }
    return { rows, affectedRows };
  }

  async exec(sql: string): Promise<void> {
    const reply = await this.send({ type: "exec", sql });
    if (!reply.ok) throw new PgliteQueryError(reply.error ?? { message: "Unknown database error" });
  }

  /** LISTEN in the embedded database: `onMessage` gets each committed pg_notify on `channel`. */
  async listen(channel: string, onMessage: (payload: string) => void): Promise<() => void> {
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      const reply = await this.send({ type: "listen", channel });
      if (!reply.ok) throw new PgliteQueryError(reply.error ?? { message: "Unknown database error" });
    }
    set.add(onMessage);
    return () => set.delete(onMessage);
  }

  /** The data folder as a tarball (PGlite's dumpDataDir), after a checkpoint; gzipped unless `compress` is false. */
  async dumpDataDir(compress = true): Promise<Uint8Array> {
    const reply = (await this.send({ type: "dump", compress })) as WorkerReply & { data?: Uint8Array };
    if (!reply.ok || !reply.data) throw new PgliteQueryError(reply.error ?? { message: "The dump returned nothing" });
    return reply.data;
  }

  async close(): Promise<void> {
    await this.send({ type: "close" });
    await this.worker.terminate();
  }
}

class PgliteConnection implements DatabaseConnection {
  constructor(
    private client: PgliteWorkerClient,
    private gate: TransactionGate,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    await this.gate.waitTurn(this);
    const { rows, affectedRows } = await this.client.query<R>(query.sql, serializeParams(query.parameters));
    const kind = query.query?.kind;
    const isWrite = kind === "InsertQueryNode" || kind === "UpdateQueryNode" || kind === "DeleteQueryNode";
    return isWrite ? { rows, numAffectedRows: BigInt(affectedRows) } : { rows };
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("Streaming is not supported by the embedded database driver");
  }
}

/**
 * PGlite has one session. Statements outside a transaction are sent as soon as they come
 * (the worker runs them in arrival order, so the worker never idles waiting for a round
 * trip); while a transaction is open, only its own statements may enter the session.
 */
class TransactionGate {
  private owner: PgliteConnection | null = null;
  private waiters: Array<() => void> = [];

  /** Resolves when `conn` may send a statement: no transaction, or its own. */
  async waitTurn(conn: PgliteConnection): Promise<void> {
    while (this.owner !== null && this.owner !== conn) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /**
   * Waits for any other transaction to end, then makes `conn` the owner. The check and the
   * claim run in one step: awaiting waitTurn here would let every waiter woken by close()
   * pass the check before the first one claims the session, and their transactions mix.
   */
  async open(conn: PgliteConnection): Promise<void> {
    while (this.owner !== null && this.owner !== conn) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    this.owner = conn;
  }

  close(): void {
    this.owner = null;
    for (const wake of this.waiters.splice(0)) wake();
  }
}

// Objects and arrays go to jsonb columns as JSON text, as pg does for plain objects.
function serializeParams(params: readonly unknown[]): unknown[] {
  return params.map((p) =>
    p !== null && typeof p === "object" && !(p instanceof Date) && !(p instanceof Uint8Array)
      ? JSON.stringify(p)
      : p,
  );
}

/** Kysely driver over the worker; see TransactionGate for how the one session is shared. */
export class PgliteWorkerDriver implements Driver {
  private gate = new TransactionGate();

  constructor(private client: PgliteWorkerClient) {}

  async init(): Promise<void> {
    await this.client.ready;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PgliteConnection(this.client, this.gate);
  }

  async releaseConnection(): Promise<void> {}

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.gate.open(conn as PgliteConnection);
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : "";
    try {
      await conn.executeQuery(CompiledQuery.raw(`begin${isolation}`));
    } catch (err) {
      this.gate.close();
      throw err;
    }
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    try {
      await conn.executeQuery(CompiledQuery.raw("commit"));
    } finally {
      this.gate.close();
    }
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    try {
      await conn.executeQuery(CompiledQuery.raw("rollback"));
    } finally {
      this.gate.close();
    }
  }

  /**
   * Runs `work` while no transaction is open and none can begin (statements from outside wait
   * too): what the worker does then sees only committed data, as a backup must.
   */
  async whileIdle<T>(work: () => Promise<T>): Promise<T> {
    const holder = new PgliteConnection(this.client, this.gate);
    await this.gate.open(holder);
    try {
      return await work();
    } finally {
      this.gate.close();
    }
  }

  async destroy(): Promise<void> {
    await this.client.close();
  }
}
