import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { recordingIo } from "../test/recording-io.js";
import { openTestDatabase } from "../test/test-app.js";
import { main } from "./cli.js";
import type { DatabaseHandle } from "./db/connection.js";

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "tally-cli-"));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe("cli commands and help", () => {
  test("help lists every command; no command or an unknown one is a usage error", async () => {
    const help = recordingIo(undefined);
    expect(await main(["help"], help)).toBe(0);
    for (const c of ["migrate", "create-user", "seed:demo", "seed:large [--students N]", "help"]) expect(help.lines.join("\n")).toContain(c);

    const none = recordingIo(undefined);
    expect(await main([], none)).toBe(2);
    expect(none.errors.join("\n")).toContain("Usage: npm run cli -- <command>");

    const unknown = recordingIo(undefined);
    expect(await main(["seed:everything"], unknown)).toBe(2);
    expect(unknown.errors.join("\n")).toMatch(/^Unknown command "seed:everything"\.\n\nUsage:/);
  });

  test("a command's --help shows only that command", async () => {
    const io = recordingIo(undefined);
    expect(await main(["seed:large", "--help"], io)).toBe(0);
    expect(io.lines.join("\n")).toContain("seed:large [--students N]");
    expect(io.lines.join("\n")).not.toContain("create-user");
  });

  test("bad configuration is reported without a stack trace", async () => {
    const io = recordingIo(undefined, { env: { DATA_DIR: dataDir, PORT: "not-a-port" } });
    expect(await main(["migrate"], io)).toBe(1);
    expect(io.errors.join("\n")).toContain("PORT: must be a number");
    expect(io.errors.join("\n")).not.toMatch(/\n\s+at /);
  });
});

describe("cli seed commands", () => {
  let database: DatabaseHandle;
  let drop: () => Promise<void>;
  beforeEach(async () => {
    ({ database, drop } = await openTestDatabase());
  });
  afterEach(async () => drop());

  test("seed:demo loads an empty database once, then refuses", async () => {
    const io = recordingIo(database, { env: { DATA_DIR: dataDir } });
    expect(await main(["seed:demo"], io)).toBe(0);
    const out = io.lines.join("\n");
    expect(out).toMatch(/superadmin\s+super_admin/);
    const file = join(dataDir, "demo-credentials.txt");
    expect(out).toContain(file);
    const password = /Password for every account: (\S+)/.exec(readFileSync(file, "utf8"))?.[1];
    expect(out).toContain(`password for all: ${password}`);
    // The demo's alerts are evaluated once the seed committed.
    expect(out).toMatch(/Demo alerts: [1-9]\d* raised as of 2026-04-27/);

    const again = recordingIo(database, { env: { DATA_DIR: dataDir } });
    expect(await main(["seed:demo"], again)).toBe(1);
    expect(again.errors.join("\n")).toContain("The database is not empty");
  });

  test("seed:large adds the requested students and validates --students", async () => {
    const io = recordingIo(database, { env: { DATA_DIR: dataDir } });
    expect(await main(["seed:large", "--students", "200"], io)).toBe(0);
    expect(io.lines.at(-1)).toMatch(/^Added 2 schools, 4 cohorts, \d+ teams, 200 students, 4000 attendance records and 2000 weekly rows in [\d.]+ s\.$/);
    const students = await database.db.selectFrom("students").select("id").execute();
    expect(students).toHaveLength(200);

    const twice = recordingIo(database, { env: { DATA_DIR: dataDir } });
    expect(await main(["seed:large", "--students", "200"], twice)).toBe(1);
    expect(twice.errors.join("\n")).toContain("already loaded");

    for (const bad of [["--students", "0"], ["--students", "lots"], ["--students"], ["200"]]) {
      const io2 = recordingIo(database, { env: { DATA_DIR: dataDir } });
      expect(await main(["seed:large", ...bad], io2)).toBe(2);
      expect(io2.errors.join("\n")).toContain("seed:large [--students N]");
      expect(io2.opened).toBe(0);
    }
  });
});

describe("cli and the DATA_DIR lock", () => {
  let holder: ChildProcess | undefined;
  afterEach(() => {
    if (holder?.pid) process.kill(holder.pid);
    holder = undefined;
  });

  test("refuses while another process holds the embedded database, and works once it is gone", async () => {
    // The lock treats its own pid as stale, so another live process has to hold it.
    const lockFile = join(dataDir, "tally.lock");
    holder = spawn(process.execPath, [
      "-e",
      `require("fs").writeFileSync(${JSON.stringify(lockFile)}, JSON.stringify({ pid: process.pid, command: "server", startedAt: new Date().toISOString() }), { flag: "wx" });
       console.log("locked"); setInterval(() => {}, 1000);`,
    ]);
    await new Promise<void>((resolve, reject) => {
      holder?.stdout?.once("data", () => resolve());
      holder?.once("error", reject);
    });

    const io = recordingIo(undefined, { env: { DATA_DIR: dataDir } });
    expect(await main(["migrate"], io)).toBe(1);
    expect(io.errors).toHaveLength(1);
    expect(io.errors[0]).toContain(`The embedded database in ${dataDir} is in use by "server" (pid ${holder.pid}`);
    expect(io.errors[0]).toContain("stop the server first");
    const createUser = recordingIo(undefined, { env: { DATA_DIR: dataDir } });
    const args = ["create-user", "--username", "root", "--email", "root@example.org", "--role", "super_admin", "--password", "Str0ng!Pass"];
    expect(await main(args, createUser)).toBe(1);
    expect(createUser.errors[0]).toContain("is in use by");

    const pid = holder.pid as number;
    await new Promise<void>((resolve) => {
      holder?.once("exit", () => resolve());
      process.kill(pid);
    });
    holder = undefined;
    const after = recordingIo(undefined, { env: { DATA_DIR: dataDir } });
    expect(await main(["migrate"], after)).toBe(0);
    expect(after.lines).toHaveLength(1);
    expect(after.lines[0]).toMatch(/^Applied migrations: 001-initial-schema(, [\w-]+)*\.$/);
    expect(existsSync(lockFile)).toBe(false);
    const again = recordingIo(undefined, { env: { DATA_DIR: dataDir } });
    expect(await main(["migrate"], again)).toBe(0);
    expect(again.lines).toEqual(["The database is up to date."]);
  });
});
