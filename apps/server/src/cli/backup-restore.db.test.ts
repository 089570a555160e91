import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { recordingIo } from "../../test/recording-io.js";
import { main } from "../cli.js";
import { loadConfig } from "../config.js";
import { openDatabase } from "../db/connection.js";
import { openConfiguredDatabase } from "../db/configured-database.js";
import type { Database } from "../db/schema.js";
import { loadDemoIntoEmptyDatabase } from "../db/seed/first-run.js";
import { systemClock } from "../lib/clock.js";
import { encodeBackup } from "../modules/ops/backup-file.js";
import { openControlSocket } from "../modules/ops/control-socket.js";

// The embedded engine's backup and restore, end to end through the CLI. These suites make
// their own DATA_DIR folders, so they run the same on both test engines.

const folders: string[] = [];
const folder = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), `tally-${prefix}-`));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const cli = async (args: string[], env: Record<string, string>) => {
  const io = recordingIo(undefined, { env });
  const code = await main(args, io);
  return { code, out: io.lines.join("\n"), err: io.errors.join("\n") };
};

/** Row count and an md5 of every row of every table in the database, by table name. */
async function tableChecksums(db: Kysely<Database>): Promise<Record<string, string>> {
  const { rows: tables } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  const sums: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await sql<{ n: number; h: string }>`
      select count(*)::int as n, md5(coalesce(string_agg(t::text, E'\n' order by t::text), '')) as h
      from ${sql.table(name)} t`.execute(db);
    sums[name] = `${rows[0]?.n} rows ${rows[0]?.h}`;
  }
  return sums;
}

async function withRestored<T>(dataDir: string, read: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  const handle = await openDatabase({ dataDir: join(dataDir, "pglite") });
  try {
    return await read(handle.db);
  } finally {
    await handle.close();
  }
}

describe("backup while the server runs, and restore", () => {
  const dataDir = folder("live");
  const env = { DATA_DIR: dataDir, DEMO_PASSWORD: "Demo-Backup-Pass-1" };
  let server: Awaited<ReturnType<typeof openConfiguredDatabase>>;
  let closeControl: () => Promise<void>;

  beforeAll(async () => {
    // What server.ts does: hold DATA_DIR (its lock), migrate, load the demo, open the control socket.
    const config = loadConfig(env);
    server = await openConfiguredDatabase(config, "server");
    await loadDemoIntoEmptyDatabase(server.database.db, config);
    closeControl = await openControlSocket({ dataDir, database: server.database, clock: systemClock, log: { info: () => {}, warn: () => {} } });
  }, 120_000);
  afterAll(async () => {
    await closeControl?.();
    await server?.close();
  });

  test("a backup taken through the running server restores, in a fresh folder, to the same data in every table", async () => {
    const file = join(folder("out"), "tally.backup");
    const r = await cli(["backup", "--out", file], env);
    expect(r).toMatchObject({ code: 0, err: "" });
    expect(r.out).toContain("the running server took it");
    expect(readFileSync(file).subarray(0, 15).toString()).toBe("TALLY-BACKUP 1\n");

    const fresh = folder("fresh");
    const restored = await cli(["restore", "--in", file], { DATA_DIR: fresh });
    expect(restored).toMatchObject({ code: 0, err: "" });
    expect(restored.out).not.toContain("previous database is kept");

    const before = await tableChecksums(server.database.db);
    const after = await withRestored(fresh, tableChecksums);
    expect(Object.keys(before)).toContain("students");
    expect(Number.parseInt(before.students ?? "0", 10)).toBeGreaterThan(100);
    expect(after).toEqual(before);
  }, 120_000);

  test("a backup taken amid write transactions holds each of them whole or not at all", async () => {
    const db = server.database.db;
    const writing = { on: true };
    let written = 0;
    const writer = (async () => {
      while (writing.on) {
        const n = written++;
        await db.transaction().execute(async (trx) => {
          await trx.insertInto("schools").values({ name: `Pair ${n} A`, district: `pair-${n}` }).execute();
          await new Promise((resolve) => setTimeout(resolve, 5));
          await trx.insertInto("schools").values({ name: `Pair ${n} B`, district: `pair-${n}` }).execute();
        });
      }
    })();
    const file = join(folder("out"), "busy.backup");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const r = await cli(["backup", "--out", file], env);
    writing.on = false;
    await writer;
    expect(r.code).toBe(0);

    const fresh = folder("busy");
    expect((await cli(["restore", "--in", file], { DATA_DIR: fresh })).code).toBe(0);
    const pairs = await withRestored(fresh, (rdb) =>
      rdb.selectFrom("schools").select(["district", (eb) => eb.fn.countAll<number>().as("n")]).where("district", "like", "pair-%").groupBy("district").execute(),
    );
    expect(pairs.length).toBeGreaterThan(0);
    expect(pairs.length).toBeLessThan(written + 1);
    for (const pair of pairs) expect(Number(pair.n), pair.district).toBe(2);
  }, 120_000);

  test("restore refuses while the server holds the folder, and changes nothing", async () => {
    const file = join(folder("out"), "again.backup");
    expect((await cli(["backup", "--out", file], env)).code).toBe(0);
    const r = await cli(["restore", "--in", file], env);
    expect(r.code).toBe(1);
    expect(r.err).toContain('cannot run while "server"');
    expect(r.err).toContain("stop it first");
    expect(readdirSync(dataDir).filter((f) => f.startsWith("pglite"))).toEqual(["pglite"]);
    expect((await server.database.db.selectFrom("students").select("id").limit(1).execute()).length).toBe(1);
  }, 60_000);
});

describe("backup and restore without a server, and what they refuse", () => {
  const dataDir = folder("idle");
  const env = { DATA_DIR: dataDir };
  const out = folder("idle-out");
  let good: Buffer;

  beforeAll(async () => {
    const opened = await openConfiguredDatabase(loadConfig(env), "setup");
    await opened.database.db.insertInto("schools").values({ name: "Kept High", district: "Idle" }).execute();
    await opened.close();
  }, 60_000);

  test("with no server running, backup opens the folder itself; restore keeps the folder it replaces", async () => {
    const file = join(out, "idle.backup");
    const r = await cli(["backup", "--out", file], env);
    expect(r).toMatchObject({ code: 0, err: "" });
    expect(r.out).toContain("no server was running");
    good = readFileSync(file);

    const opened = await openConfiguredDatabase(loadConfig(env), "setup");
    await opened.database.db.insertInto("schools").values({ name: "Added After", district: "Idle" }).execute();
    await opened.close();

    const restored = await cli(["restore", "--in", file], env);
    expect(restored.code).toBe(0);
    expect(restored.out).toMatch(/previous database is kept in .*pglite\.before-restore-/);
    const names = await withRestored(dataDir, (db) => db.selectFrom("schools").select("name").orderBy("name").execute());
    expect(names.map((s) => s.name)).toEqual(["Kept High"]);
    const kept = readdirSync(dataDir).find((f) => f.startsWith("pglite.before-restore-")) ?? "";
    const old = await openDatabase({ dataDir: join(dataDir, kept) });
    expect((await old.db.selectFrom("schools").select("name").execute()).map((s) => s.name)).toContain("Added After");
    await old.close();
  }, 120_000);

  test.each([
    ["text", () => Buffer.from("name,school\nAda,North\n"), "does not start as one"],
    ["truncated", () => good.subarray(0, good.length - 100), "a partial copy"],
    ["altered", () => Buffer.concat([good.subarray(0, -1), Buffer.from([good.at(-1) === 0 ? 1 : 0])]), "checksum does not match"],
    ["header", () => Buffer.from('TALLY-BACKUP 1\n{"engine":"postgres"}\n'), "header is damaged"],
  ])("restore refuses a %s file as not a Tally backup, before touching the folder", async (_kind, content, reason) => {
    const file = join(out, `bad-${_kind}`);
    writeFileSync(file, content());
    const before = readdirSync(dataDir).sort();
    const r = await cli(["restore", "--in", file], env);
    expect(r.code).toBe(1);
    expect(r.err).toContain("This is not a usable Tally backup");
    expect(r.err).toContain(reason);
    expect(readdirSync(dataDir).sort()).toEqual(before);
  });

  test("a well-formed backup whose data is no database fails to open, and the folder stays as it was", async () => {
    const file = join(out, "not-a-database.backup");
    writeFileSync(file, encodeBackup(gzipSync(Buffer.alloc(4096)), { createdAt: new Date().toISOString(), latestMigration: null }));
    const before = readdirSync(dataDir).sort();
    const r = await cli(["restore", "--in", file], env);
    expect(r.code).toBe(1);
    expect(r.err).toContain("could not be opened");
    expect(r.err).toContain("is unchanged");
    expect(readdirSync(dataDir).sort()).toEqual(before);
    const names = await withRestored(dataDir, (db) => db.selectFrom("schools").select("name").execute());
    expect(names.map((s) => s.name)).toEqual(["Kept High"]);
  }, 60_000);

  test("refuses clearly: no --out, an existing file, PostgreSQL, no database, a missing file", async () => {
    expect(await cli(["backup"], env)).toMatchObject({ code: 2, err: expect.stringContaining("--out is required.") });
    const taken = join(out, "taken");
    writeFileSync(taken, "x");
    expect(await cli(["backup", "--out", taken], env)).toMatchObject({ code: 1, err: `${taken} already exists: choose another name, or delete it first.` });
    expect(readFileSync(taken, "utf8")).toBe("x");
    const pg = { ...env, DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" };
    expect(await cli(["backup", "--out", join(out, "pg")], pg)).toMatchObject({ code: 1, err: expect.stringContaining("use pg_dump") });
    expect(await cli(["restore", "--in", taken], pg)).toMatchObject({ code: 1 });
    const empty = folder("empty");
    expect(await cli(["backup", "--out", join(out, "none")], { DATA_DIR: empty })).toMatchObject({ code: 1, err: expect.stringContaining("no embedded database") });
    expect(existsSync(join(empty, "pglite"))).toBe(false);
    expect(await cli(["restore", "--in", join(out, "missing")], env)).toMatchObject({ code: 1, err: expect.stringContaining("does not exist") });
    expect(await cli(["restore"], env)).toMatchObject({ code: 2, err: expect.stringContaining("--in is required.") });
  });
});
