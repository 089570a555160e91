import { Kysely, sql, PostgresAdapter, PostgresDialect, PostgresIntrospector, PostgresQueryCompiler } from "kysely";
import pg from "pg";
import { PgliteWorkerClient, PgliteWorkerDriver } from "./pglite-driver.js";
import type { Database } from "./schema.js";

export type Engine = "embedded" | "postgres";

export interface DatabaseHandle {
  db: Kysely<Database>;
  engine: Engine;
  /** Subscribes to a PostgreSQL NOTIFY channel (embedded: in-process only). */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  /** Sends a NOTIFY to every instance sharing the database (embedded: this process). */
  notify(channel: string, payload: string): Promise<void>;
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
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  await db.selectNoFrom((eb) => eb.val(1).as("one")).execute();
  const listeners: pg.Client[] = [];
  return {
    db,
    engine: "postgres",
    async listen(channel, onMessage) {
      const client = new pg.Client({ connectionString: options.databaseUrl, options: searchPath });
      await client.connect();
      client.on("notification", (n) => {
        if (n.channel === channel) onMessage(n.payload ?? "");
      });
      client.on("error", () => {});
      await client.query(`listen "${channel}"`);
      listeners.push(client);
      return async () => {
        await client.end().catch(() => {});
      };
    },
    async notify(channel, payload) {
      await sql`select pg_notify(${channel}, ${payload})`.execute(db);
    },
    async close() {
      await Promise.all(listeners.map((c) => c.end().catch(() => {})));
      await db.destroy();
    },
  };
}

async function openEmbedded(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const client = new PgliteWorkerClient(options.dataDir, options.relaxedDurability);
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new PgliteWorkerDriver(client),
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  await client.ready;
  // One process owns the embedded database, so notifications never leave it.
  const channels = new Map<string, Set<(payload: string) => void>>();
  return {
    db,
    engine: "embedded",
    async listen(channel, onMessage) {
      const set = channels.get(channel) ?? new Set();
      set.add(onMessage);
      channels.set(channel, set);
      return async () => {
        set.delete(onMessage);
      };
    },
    async notify(channel, payload) {
      for (const fn of channels.get(channel) ?? []) fn(payload);
    },
    async close() {
      await db.destroy();
    },
  };
}
