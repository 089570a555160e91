import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export class DataDirLockedError extends Error {
  constructor(readonly holder: { pid: number; command: string; startedAt: string }, dataDir: string) {
    super(
      `The embedded database in ${dataDir} is in use by "${holder.command}" (pid ${holder.pid}, since ${holder.startedAt}). ` +
        "PGlite allows one process at a time: stop the server first, or run against PostgreSQL with DATABASE_URL.",
    );
    this.name = "DataDirLockedError";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The locks this process holds now. A lock file naming this process's pid is otherwise taken
 * over as stale (a container restarts with the same pid), so without this record a second
 * opener in the same process (restore in a test beside a server) would take the folder away.
 */
const heldHere = new Map<string, { pid: number; command: string; startedAt: string }>();

/**
 * Takes DATA_DIR/tally.lock for this process. A lock left by a process that has died is
 * taken over; a live holder, or this process already holding it, makes this throw. Returns
 * the release function.
 */
export function acquireDataDirLock(dataDir: string, command: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(resolve(dataDir), "tally.lock");
  const mine = heldHere.get(file);
  if (mine) throw new DataDirLockedError(mine, dataDir);
  const me = { pid: process.pid, command, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(me), { flag: "wx" });
      heldHere.set(file, me);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        heldHere.delete(file);
        try {
          unlinkSync(file);
        } catch {
          // already gone
        }
      };
      process.once("exit", release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      let holder: typeof me | undefined;
      try {
        holder = JSON.parse(readFileSync(file, "utf8"));
      } catch {
        holder = undefined;
      }
      if (holder && holder.pid !== process.pid && isAlive(holder.pid)) throw new DataDirLockedError(holder, dataDir);
      unlinkSync(file);
    }
  }
  throw new Error(`Could not take the lock ${file}`);
}
