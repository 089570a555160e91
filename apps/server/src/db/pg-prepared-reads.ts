import type pg from "pg";

// How Tally's PostgreSQL connections run the statements Kysely sends (`client.query(text,
// values)`, awaited), measured on the bench's call list (issue 30):
// - through pg's callback and a promise of our own, not pg's promise: through pg's, about a
//   third of what a query allocated outlived the next young-generation collection (3.6 MB of
//   10 MB, against 7 KB), and each collection took 10 ms instead of 1;
// - a read (select, with) kept prepared on the connection, by its text, as the embedded engine
//   keeps them (pglite-statements.js): parsed once, and planned once where PostgreSQL judges a
//   generic plan as good (always for a statement without parameters). A school user's page
//   went from 8.8 to 4.7 ms at p50.
// Every other form of call (a callback, a submittable such as a cursor) is passed on as is.

/** Statements kept prepared per connection; the least recently used is let go past this. */
const PREPARED_READS_PER_CONNECTION = 100;
const CACHEABLE = /^\s*(select|with)\b/i;
/** The prepared statement's result changed shape (a migration, a restore): prepare it again. */
const CACHED_PLAN_CHANGED = "0A000";

type Callback = (err: Error | null, result: pg.QueryResult) => void;
type RawQuery = (config: unknown, values?: unknown, callback?: Callback) => unknown;

interface ConnectionState {
  parsedStatements: Record<string, string>;
}

export function keepReadsPrepared(client: pg.PoolClient, capacity = PREPARED_READS_PER_CONNECTION): void {
  const query = client.query.bind(client) as RawQuery;
  const connection = (client as unknown as { connection: ConnectionState }).connection;
  /** Text → statement name, least recently used first. */
  const names = new Map<string, string>();
  /** Let go of, still to be deallocated on the server once the connection is between transactions. */
  const retired: string[] = [];
  let next = 0;

  const run = (config: unknown, values?: unknown) =>
    new Promise<pg.QueryResult>((resolve, reject) => {
      query(config, values, (err, result) => (err ? reject(err) : resolve(result)));
    });

  const retire = (text: string, name: string) => {
    names.delete(text);
    delete connection.parsedStatements[name];
    retired.push(name);
  };

  // A DEALLOCATE inside a transaction would take the transaction down with it if it failed:
  // only between transactions, queued ahead of the statement about to run.
  const deallocateRetired = () => {
    if (retired.length === 0 || client.getTransactionStatus() !== "I") return;
    const text = retired.splice(0).map((name) => `deallocate ${name}`).join("; ");
    query(text, undefined, () => {});
  };

  const runPrepared = async (text: string, values: unknown) => {
    let name = names.get(text);
    if (name === undefined) {
      name = `tally_r${next++}`;
      if (names.size >= capacity) {
        const [oldText, oldName] = names.entries().next().value as [string, string];
        retire(oldText, oldName);
      }
    } else names.delete(text);
    names.set(text, name);
    deallocateRetired();
    try {
      return await run({ name, text, values });
    } catch (err) {
      if ((err as { code?: unknown }).code !== CACHED_PLAN_CHANGED) throw err;
      retire(text, name);
      // Inside a transaction the error has aborted it: the caller gets it.
      if (client.getTransactionStatus() !== "I") throw err;
      deallocateRetired();
      return run(text, values);
    }
  };

  (client as { query: unknown }).query = (config: unknown, values?: unknown, callback?: unknown) => {
    const submittable = typeof (config as { submit?: unknown } | null)?.submit === "function";
    if (callback !== undefined || typeof values === "function" || submittable) return query(config, values, callback as Callback);
    if (typeof config === "string" && CACHEABLE.test(config)) return runPrepared(config, values);
    return run(config, values);
  };
}
