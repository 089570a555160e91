import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../../../test/test-app.js";
import { systemClock } from "../../lib/clock.js";
import { decodeBackup } from "./backup-file.js";
import { controlSocketPath, openControlSocket, requestBackup } from "./control-socket.js";

const database = useTestDatabase();
const dataDir = mkdtempSync(join(tmpdir(), "tally-control-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const quiet = { info: () => {}, warn: () => {} };

function ask(line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(controlSocketPath(dataDir), () => socket.write(line));
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("the server's control socket", () => {
  it("is the server account's only, replaces a stale one, answers backup only, and goes away on close", async () => {
    // A socket file left by a server that died.
    writeFileSync(controlSocketPath(dataDir), "stale");
    const close = await openControlSocket({ dataDir, database, clock: systemClock, log: quiet });
    try {
      const mode = statSync(controlSocketPath(dataDir)).mode;
      expect(statSync(controlSocketPath(dataDir)).isSocket()).toBe(true);
      expect(mode & 0o777).toBe(0o600);
      expect(JSON.parse(await ask('{"request":"drop everything"}\n'))).toEqual({
        ok: false,
        error: 'Unknown request: the control socket answers {"request":"backup"} only.',
      });
      expect(JSON.parse(await ask("not json\n")).ok).toBe(false);

      if (database.engine === "embedded") {
        const file = await requestBackup(dataDir);
        expect(file && decodeBackup(file).header).toMatchObject({ engine: "embedded", latestMigration: expect.any(String) });
      } else {
        // PostgreSQL is backed up with pg_dump; the socket says so rather than failing obscurely.
        await expect(requestBackup(dataDir)).rejects.toThrow(/use pg_dump and pg_restore/);
      }
    } finally {
      await close();
    }
    expect(existsSync(controlSocketPath(dataDir))).toBe(false);
    // No server: the CLI is told to open the folder itself.
    expect(await requestBackup(dataDir)).toBeUndefined();
  });
});
