// Plain JavaScript, like pglite-worker.js, which loads it with no TypeScript loader in between.
import { parse, protocol } from "@electric-sql/pglite";

const { serialize } = protocol;

/** Statements whose text may be kept prepared: reads, the bulk of a dashboard's traffic. */
const CACHEABLE = /^\s*(select|with)\b/i;
/** A cached plan became invalid in a way PostgreSQL will not repair by re-planning. */
const CACHED_PLAN_CHANGED = "0A000";

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * Keeps read statements prepared in PGlite's session, by text, so that a repeated statement
 * skips parsing, and, where PostgreSQL's plan cache judges a generic plan as good as a custom
 * one (always for statements without parameters), planning too. On the embedded engine
 * planning a dashboard query costs as much as running it. The least recently used statement
 * is closed once `capacity` are held.
 * Unlike PGlite's query() this does not call syncToFs afterwards: that only matters for the
 * browser's IndexedDB store; on Node's file system and in memory it does nothing.
 */
export class PreparedStatements {
  #db;
  #capacity;
  #statements = new Map();
  #next = 1;

  // Each holds a parse tree and perhaps a plan in PGlite's memory: a dashboard uses a few dozen.
  constructor(db, capacity = 128) {
    this.#db = db;
    this.#capacity = capacity;
  }

  get size() {
    return this.#statements.size;
  }

  /** Same contract as PGlite's query(): { rows, affectedRows }. */
  async query(text, params) {
    if (!CACHEABLE.test(text)) return this.#db.query(text, params);
    try {
      return await this.#run(text, params);
    } catch (err) {
      if (err?.code !== CACHED_PLAN_CHANGED || !this.#statements.has(text)) throw err;
      // A migration changed what the statement returns: prepare it afresh. Inside a
      // transaction the error has already aborted it, so the caller gets the error.
      await this.#forget(text);
      if (this.#db.isInTransaction()) throw err;
      return this.#run(text, params);
    }
  }

  async #run(text, params) {
    const statement = await this.#prepare(text);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = this.#db.serializers[statement.paramTypes[i]];
      return serializer ? serializer(value) : value.toString();
    });
    const messages = await this.#db.execProtocolStream(
      concat([
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: "P" }),
        serialize.execute({}),
        serialize.sync(),
      ]),
    );
    const [result] = parse.parseResults(messages, this.#db.parsers);
    return { rows: result?.rows ?? [], affectedRows: result?.affectedRows ?? 0 };
  }

  async #prepare(text) {
    const cached = this.#statements.get(text);
    if (cached) {
      // Map order is insertion order: moving the entry to the end marks it recently used.
      this.#statements.delete(text);
      this.#statements.set(text, cached);
      return cached;
    }
    const name = `tally_s${this.#next++}`;
    const messages = await this.#db.execProtocolStream(
      concat([serialize.parse({ name, text, types: [] }), serialize.describe({ type: "S", name }), serialize.sync()]),
    );
    const description = messages.find((m) => m.name === "parameterDescription");
    const statement = { name, paramTypes: description?.dataTypeIDs ?? [] };
    this.#statements.set(text, statement);
    if (this.#statements.size > this.#capacity) {
      const oldest = this.#statements.keys().next().value;
      await this.#forget(oldest);
    }
    return statement;
  }

  async #forget(text) {
    const statement = this.#statements.get(text);
    if (!statement) return;
    this.#statements.delete(text);
    await this.#db.execProtocolStream(concat([serialize.close({ type: "S", name: statement.name }), serialize.sync()]));
  }
}
