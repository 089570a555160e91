// Plain JavaScript on purpose: a worker_thread loads this file directly, both from the build
// output and from the sources under test, with no TypeScript loader in between.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { PreparedStatements } from "./pglite-statements.js";

// Same value shapes as the pg driver is given in connection.ts: counts and sums as numbers,
// dates as YYYY-MM-DD strings.
const parsers = {
  20: (v) => Number(v),
  1700: (v) => Number(v),
  1082: (v) => v,
};

// PostgreSQL's shared buffers live in the engine's WebAssembly memory, which is touched whole
// at start and never given back: that much of the server's resident memory whatever the data.
// 64 MB, not PGlite's 128 MB: measured on the 50,000-student set, a 25,000-student import
// peaked ~70 MB lower and took no longer, and the dashboards met their targets as before
// (README, Performance). PGLITE_SHARED_BUFFERS (checked in config.ts) sets another size.
const DEFAULT_SHARED_BUFFERS = "64MB";
const startParams = [...PGlite.defaultStartParams, "-c", `shared_buffers=${workerData.sharedBuffers ?? DEFAULT_SHARED_BUFFERS}`];

const db = await PGlite.create(workerData.dataDir ?? undefined, {
  // A migrated copy to begin with: PGlite then skips initdb, about 3 s of a 4 s start.
  loadDataDir: workerData.startFrom ? new Blob([workerData.startFrom]) : undefined,
  parsers,
  relaxedDurability: workerData.relaxedDurability ?? false,
  startParams,
});

const statements = new PreparedStatements(db);

// Statements run strictly in arrival order: the driver relies on it to keep a transaction's
// statements apart from those sent before it began.
let queue = Promise.resolve();
parentPort.on("message", (msg) => {
  if (msg.type === "more") sendMore(msg.id);
  else queue = queue.then(() => handle(msg));
});

// A large result goes back a slice at a time, each slice asked for by the main thread when it
// has taken the one before: decoding a message happens in one go on the receiving thread, and
// 50,000 rows at once held its event loop for tens of milliseconds.
const SLICE_ROWS = 2_000;
const unsent = new Map();

function sendRows(id, rows, affectedRows) {
  if (rows.length <= SLICE_ROWS) {
    parentPort.postMessage({ id, ok: true, rows, affectedRows });
    return;
  }
  unsent.set(id, { rows, from: SLICE_ROWS });
  parentPort.postMessage({ id, ok: true, rows: rows.slice(0, SLICE_ROWS), affectedRows, more: true });
}

function sendMore(id) {
  const rest = unsent.get(id);
  if (!rest) {
    parentPort.postMessage({ id, ok: false, error: { message: "No more rows for this query" } });
    return;
  }
  const to = rest.from + SLICE_ROWS;
  const more = to < rest.rows.length;
  if (more) rest.from = to;
  else unsent.delete(id);
  parentPort.postMessage({ id, ok: true, rows: rest.rows.slice(to - SLICE_ROWS, to), affectedRows: 0, more });
}

async function handle(msg) {
  if (msg.type === "close") {
    await db.close();
    parentPort.postMessage({ id: msg.id, ok: true });
    return;
  }
  try {
    if (msg.type === "listen") {
      // PGlite's own LISTEN: a pg_notify inside a transaction arrives here at its commit, as
      // on PostgreSQL, and is forwarded to the main thread.
      await db.listen(msg.channel, (payload) => {
        parentPort.postMessage({ type: "notification", channel: msg.channel, payload });
      });
      parentPort.postMessage({ id: msg.id, ok: true, rows: [], affectedRows: 0 });
      return;
    }
    if (msg.type === "dump") {
      // A checkpoint first, so the tarball's data files hold every commit and a restore needs
      // no WAL replay; the driver sends this only between transactions.
      await db.exec("checkpoint");
      const tarball = await db.dumpDataDir(msg.compress === false ? "none" : "gzip");
      const data = new Uint8Array(await tarball.arrayBuffer());
      parentPort.postMessage({ id: msg.id, ok: true, data }, [data.buffer]);
      return;
    }
    if (msg.type === "exec") {
      await db.exec(msg.sql);
      parentPort.postMessage({ id: msg.id, ok: true, rows: [], affectedRows: 0 });
      return;
    }
    const res = await statements.query(msg.sql, msg.params ?? []);
    sendRows(msg.id, res.rows, res.affectedRows ?? 0);
  } catch (err) {
    parentPort.postMessage({
      id: msg.id,
      ok: false,
      error: {
        message: err?.message ?? String(err),
        code: err?.code,
        detail: err?.detail,
        constraint: err?.constraint,
        table: err?.table,
        column: err?.column,
      },
    });
  }
}

parentPort.postMessage({ type: "ready" });
