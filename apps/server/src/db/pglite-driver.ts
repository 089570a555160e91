import { Worker } from "node:worker_threads";
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

/**
 * Runs PGlite in a worker thread so that query work never blocks the event loop.
 * PGlite has a single session, so the driver hands out one connection at a time.
 */
export class PgliteWorkerClient {
  private worker: Worker;
  private nextId = 1;
  private pending = new Map<number, (r: WorkerReply) => void>();
  readonly ready: Promise<void>;

  constructor(dataDir: string | undefined, relaxedDurability = false) {
    this.worker = new Worker(new URL("./pglite-worker.js", import.meta.url), {
      workerData: { dataDir, relaxedDurability },
    });
    this.ready = new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.worker.once("error", onError);
      this.worker.on("message", (msg: WorkerReply & { type?: string }) => {
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

  private send(msg: Record<string, unknown>): Promise<WorkerReply> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.postMessage({ ...msg, id });
    });
  }

  async query<R>(sql: string, params: readonly unknown[]): Promise<{ rows: R[]; affectedRows: number }> {
    const reply = await this.send({ type: "query", sql, params });
    if (!reply.ok) throw new PgliteQueryError(reply.error ?? { message: "Unknown database error" });
    return { rows: (reply.rows ?? []) as R[], affectedRows: reply.affectedRows ?? 0 };
  }

  async exec(sql: string): Promise<void> {
    const reply = await this.send({ type: "exec", sql });
    if (!reply.ok) throw new PgliteQueryError(reply.error ?? { message: "Unknown database error" });
  }

  async close(): Promise<void> {
    await this.send({ type: "close" });
    await this.worker.terminate();
  }
}

class PgliteConnection implements DatabaseConnection {
  constructor(private client: PgliteWorkerClient) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { rows, affectedRows } = await this.client.query<R>(query.sql, serializeParams(query.parameters));
    const kind = query.query?.kind;
    const isWrite = kind === "InsertQueryNode" || kind === "UpdateQueryNode" || kind === "DeleteQueryNode";
    return isWrite ? { rows, numAffectedRows: BigInt(affectedRows) } : { rows };
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("Streaming is not supported by the embedded database driver");
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

/** Kysely driver over the worker: one shared connection, handed out one holder at a time. */
export class PgliteWorkerDriver implements Driver {
  private connection: PgliteConnection;
  private queue: Array<() => void> = [];
  private busy = false;

  constructor(private client: PgliteWorkerClient) {
    this.connection = new PgliteConnection(client);
  }

  async init(): Promise<void> {
    await this.client.ready;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.busy) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.busy = true;
    return this.connection;
  }

  async releaseConnection(): Promise<void> {
    const next = this.queue.shift();
    if (next) next();
    else this.busy = false;
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : "";
    await conn.executeQuery(CompiledQuery.raw(`begin${isolation}`));
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw("rollback"));
  }

  async destroy(): Promise<void> {
    await this.client.close();
  }
}
