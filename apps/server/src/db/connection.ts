import { Kysely, sql, PostgresAdapter, PostgresDialect, PostgresIntrospector, PostgresQueryCompiler } from "kysely";
import { CurrentSchemaIntrospector } from "./schema-introspector.js";
import pg from "pg";
import { keepReadsPrepared } from "./pg-prepared-reads.js";
import { PgliteWorkerClient, PgliteWorkerDriver } from "./pglite-driver.js";
import type { Database } from "./schema.js";

export type Engine = "embedded" | "postgres";

export interface DatabaseHandle {
  db: Kysely<Database>;
  engine: Engine;
  /**
   * LISTENs on a channel: `onMessage` gets the payload of every committed pg_notify on it (the
   * embedded engine's own LISTEN, or a dedicated PostgreSQL connection that reconnects when it
   * drops; `onReconnect` is told then, since notifications sent while it was down are lost).
   */
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    onReconnect?: () => void,
  ): Promise<() => Promise<void>>;
  /** Sends a NOTIFY to every listener of the database (every instance sharing a PostgreSQL). */
  notify(channel: string, payload: string): Promise<void>;
  /**
   * The embedded engine only: its data folder as a tarball, taken between transactions; gzipped
   * unless `compress` is false (an uncompressed one loads about twice as fast: startFrom).
   */
  dumpDataDir?(compress?: boolean): Promise<Uint8Array>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; when absent the embedded database is used. */
  databaseUrl?: string;
  /** Folder of the embedded database; absent = in memory (tests). */
  dataDir?: string;
  /** PostgreSQL schema to work in (tests give each suite its own). */
  schema?: string;
  poolSize?: number;
  relaxedDurability?: boolean;
  /** The embedded engine's shared_buffers (e.g. "32MB"); PGlite's default when absent. */
  sharedBuffers?: string;
  /**
   * The embedded engine only: a data folder tarball (dumpDataDir) to begin with. The test suites
   * start from one migrated copy: a fresh PGlite runs initdb, ~3 s per suite.
   */
  startFrom?: Uint8Array;
}

// Same value shapes as the embedded worker: int8 and numeric as numbers, date as a string.
const pgTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === 20 || oid === 1700) return (v: string) => Number(v);
    if (oid === 1082) return (v: string) => v;
    return pg.types.getTypeParser(oid, format);
  },
};

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl ? openPostgres(options) : openEmbedded(options);
}

async function openPostgres(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const searchPath = options.schema ? `-c search_path=${options.schema}` : undefined;
  const poolConfig: pg.PoolConfig = {
    connectionString: options.databaseUrl,
    max: options.poolSize ?? 10,
    types: pgTypes as pg.CustomTypesConfig,
    options: searchPath,
  };
  if (options.schema) {
    const admin = new pg.Client({ connectionString: options.databaseUrl });
    await admin.connect();
    await admin.query(`create schema if not exists "${options.schema}"`);
    await admin.end();
  }
  const pool = new pg.Pool(poolConfig);
  // An idle client that loses its server must not crash the process.
  pool.on("error", () => {});
  pool.on("connect", (client) => keepReadsPrepared(client));
  const db = new Kysely<Database>({ dialect: new SchemaPostgresDialect({ pool }) });
  await db.selectNoFrom((eb) => eb.val(1).as("one")).execute();
  const listeners = new Set<PgListener>();
  return {
    db,
    engine: "postgres",
    async listen(channel, onMessage, onReconnect) {
      const listener = new PgListener({ connectionString: options.databaseUrl, options: searchPath }, channel, onMessage, onReconnect);
      await listener.start();
      listeners.add(listener);
      return async () => {
        listeners.delete(listener);
        await listener.stop();
      };
    },
    async notify(channel, payload) {
      await sql`select pg_notify(${channel}, ${payload})`.execute(db);
    },
    async close() {
      await Promise.all([...listeners].map((l) => l.stop()));
      await db.destroy();
    },
  };
}

/** PostgreSQL seen from one schema: see CurrentSchemaIntrospector. */
class SchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): PostgresIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}

async function openEmbedded(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const client = new PgliteWorkerClient({
    dataDir: options.dataDir,
    relaxedDurability: options.relaxedDurability,
    sharedBuffers: options.sharedBuffers,
    startFrom: options.startFrom,
  });
  const driver = new PgliteWorkerDriver(client);
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (k) => new CurrentSchemaIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  await client.ready;
  return {
    db,
    engine: "embedded",
    async listen(channel, onMessage) {
      // PGlite has one session: a LISTEN sent while another transaction is open would join it
      // (and be lost if it rolled back), so it gets a transaction of its own through the gate.
      let stop: (() => void) | undefined;
      await db.transaction().execute(async () => {
        stop = await client.listen(channel, onMessage);
      });
      return async () => stop?.();
    },
    async notify(channel, payload) {
      await sql`select pg_notify(${channel}, ${payload})`.execute(db);
    },
    dumpDataDir: (compress) => driver.whileIdle(() => client.dumpDataDir(compress)),
    async close() {
      await db.destroy();
    },
  };
}

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;

/**
 * One PostgreSQL connection that LISTENs on a channel. A pooled connection cannot LISTEN (it
 * is handed to others between queries), so this one is kept apart; when the server drops it
 * (restart, failover, idle kill) it reconnects with backoff until stopped.
 */
class PgListener {
  private client: pg.Client | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private attempt = 0;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly channel: string,
    private readonly onMessage: (payload: string) => void,
    private readonly onReconnect?: () => void,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client(this.config);
    let lost = false;
    const onLost = () => {
      if (lost || this.stopped) return;
      lost = true;
      if (this.client === client) this.client = undefined;
      this.scheduleReconnect();
    };
    client.on("notification", (n) => {
      if (n.channel === this.channel) this.onMessage(n.payload ?? "");
    });
    client.on("error", onLost);
    client.on("end", onLost);
    try {
      await client.connect();
      await client.query(`listen "${this.channel.replaceAll('"', '""')}"`);
    } catch (err) {
      lost = true;
      await client.end().catch(() => {});
      throw err;
    }
    this.client = client;
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.retry) return;
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** this.attempt);
    this.attempt += 1;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.start().then(
        () => {
          this.attempt = 0;
          if (this.stopped) void this.stop();
          else this.onReconnect?.();
        },
        () => this.scheduleReconnect(),
      );
    }, delay);
    this.retry.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = undefined;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}
