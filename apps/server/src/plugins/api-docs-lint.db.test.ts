import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { useTestApp } from "../../test/test-app.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const REDOCLY = join(ROOT, "node_modules/@redocly/cli/bin/cli.js");

/**
 * Warnings left as they are, with why: the document names no licence because Tally is not
 * published under one.
 */
const ACCEPTED_WARNINGS = ["info-license"];

/**
 * The single sign-on start and callback are browser redirects: their success is a documented
 * 302, which `operation-2xx-response` warns about. Accepted for those two operations only.
 */
const REDIRECTS = ["/paths/~1api~1auth~1oidc~1{id}~1start/get/responses", "/paths/~1api~1auth~1oidc~1{id}~1callback/get/responses"];
const accepted = (p: LintProblem) =>
  ACCEPTED_WARNINGS.includes(p.ruleId) || (p.ruleId === "operation-2xx-response" && REDIRECTS.some((r) => p.location[0]?.pointer === `#${r}`));

const t = useTestApp();

interface LintProblem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location: Array<{ pointer?: string }>;
}

/** `redocly lint` (Redocly's recommended rules, redocly.yaml) of the document the app serves. */
async function lint(document: string): Promise<LintProblem[]> {
  const dir = await mkdtemp(join(tmpdir(), "tally-openapi-"));
  try {
    const file = join(dir, "openapi.json");
    await writeFile(file, document);
    const args = [REDOCLY, "lint", file, "--config", join(ROOT, "redocly.yaml"), "--format", "json", "--max-problems", "10000"];
    // It exits 1 when there are errors; the report is on stdout either way.
    const { stdout } = await run(process.execPath, args, {
      env: { ...process.env, REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
    return (JSON.parse(stdout) as { problems: LintProblem[] }).problems;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const said = (p: LintProblem) => `${p.ruleId} at ${p.location[0]?.pointer ?? "?"}: ${p.message}`;

it("passes Redocly's recommended rules without an error", async () => {
  const res = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
  expect(res.statusCode).toBe(200);
  const problems = await lint(res.body);
  expect(problems.filter((p) => p.severity === "error").map(said)).toEqual([]);
  expect(problems.filter((p) => !accepted(p)).map(said)).toEqual([]);
});
