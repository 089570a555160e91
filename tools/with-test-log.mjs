#!/usr/bin/env node
// `node tools/with-test-log.mjs <command…>`: runs the test command with every test app logging
// (server log options, trace level) into a fresh folder, then searches that whole log for
// tokens, links and passwords. The run fails if the tests fail or the log holds a secret.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkLogDir } from "./test-log-check.mjs";

const dir = mkdtempSync(join(tmpdir(), "tally-test-log-"));
const [command, ...args] = process.argv.slice(2);
const run = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, TALLY_TEST_LOG_DIR: dir }, shell: false });
if (run.status !== 0) process.exit(run.status ?? 1);
const result = checkLogDir(dir);
if (!result.ok) {
  console.error(`The server log of this test run holds what must never be logged (${dir} kept):`);
  for (const problem of result.problems.slice(0, 50)) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(`Server log of the run: ${result.lines} lines from ${result.files} test workers, ${result.signIns} sign-ins; no token, link or password in it.`);
rmSync(dir, { recursive: true, force: true });
