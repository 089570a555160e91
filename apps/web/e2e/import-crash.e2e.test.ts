import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../../tools/free-port.mjs";
import { spawnDemoServer, waitUntilServing } from "./global-setup";

// A server killed (SIGKILL) while it writes an import leaves the embedded database as it was:
// after a restart on the same data folder there is no batch, no cohort, no student of it.

const root = new URL("../../..", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "tally-crash-"));
const PASSWORD = "Crash-Test-Passw0rd!";
const STUDENTS = 25_000;
let server: ChildProcess | undefined;
let baseUrl = "";


async function startServer(): Promise<void> {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  let output = "";
  const child = spawnDemoServer(root, port, join(dir, "data"), { DEMO_PASSWORD: PASSWORD, SMTP_URL: "", LOG_LEVEL: "warn" });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  server = child;
  await waitUntilServing(baseUrl, child, () => output);
}

afterAll(() => {
  if (server && server.exitCode === null) server.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

async function signIn(): Promise<Record<string, string>> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: "admin", password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  return { authorization: `Bearer ${((await res.json()) as { token: string }).token}` };
}

async function getJson<T>(path: string, headers: Record<string, string>): Promise<T> {
  const res = await fetch(`${baseUrl}/api${path}`, { headers });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

/** A week of 25,000 new students at one school: big enough that the write takes a while. */
function weekFiles(school: string): FormData {
  const meeting = ["First Name,Last Name,Email,School,Team,Meeting Date,Meeting Type,Status"];
  const progress = ["Name,Email,Progress,Past Due Assessments,Assessments Without Due Dates"];
  const reflection = ["User Name,Email,Hours worked this week,How are you feeling (1-5)?,Describe your week"];
  for (let i = 0; i < STUDENTS; i++) {
    const email = `crash${i}@example.org`;
    meeting.push(`Crash,Student${i},${email},${school},Team ${i % 50},2026-07-14,Mentor,Present`);
    meeting.push(`Crash,Student${i},${email},${school},Team ${i % 50},2026-07-16,Advisor,Late`);
    progress.push(`Crash Student${i},${email},${i % 100},0,1`);
    reflection.push(`Crash Student${i},${email},${i % 20},${(i % 5) + 1},A week`);
  }
  const form = new FormData();
  for (const [key, value] of Object.entries({ cohortName: "Crash cohort", programType: "Internship (6 week)", startDate: "2026-06-29", endDate: "2026-08-10", totalExpectedHours: "120", weekNumber: "3" })) {
    form.append(key, value);
  }
  form.append("attendanceReport", new Blob([meeting.join("\n")], { type: "text/csv" }), "meetings.csv");
  form.append("progressReport", new Blob([progress.join("\n")], { type: "text/csv" }), "progress.csv");
  form.append("reflectionReport", new Blob([reflection.join("\n")], { type: "text/csv" }), "reflections.csv");
  return form;
}

describe("a server killed in the middle of a commit", () => {
  it("leaves the database as it was before the import", { timeout: 300_000 }, async () => {
    await startServer();
    let headers = await signIn();
    const school = `Crash School ${Date.now()}`;
    const created = await fetch(`${baseUrl}/api/schools`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ name: school }),
    });
    expect(created.status).toBe(201);
    const before = await getJson<{ studentCount: number }>("/students/summary", headers);

    const res = await fetch(`${baseUrl}/api/flag-upload/commit-weekly-data`, {
      method: "POST",
      headers: { ...headers, accept: "application/x-ndjson" },
      body: weekFiles(school),
    });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let seen = "";
    while (!seen.includes('"stage":"writing"')) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += decoder.decode(value, { stream: true });
    }
    expect(seen).toContain('"stage":"writing"');
    // Into the transaction's writes, then the plug is pulled.
    await new Promise((r) => setTimeout(r, 300));
    const killed = server as ChildProcess;
    await new Promise((resolve) => {
      killed.once("exit", resolve);
      killed.kill("SIGKILL");
    });
    const rest = await reader.read().then(
      (r) => (r.value ? decoder.decode(r.value) : ""),
      () => "",
    );
    expect(seen + rest, "the commit finished before the kill: make the import bigger").not.toContain('"type":"result"');

    await startServer();
    headers = await signIn();
    expect(await getJson<{ data: unknown[] }>("/imports", headers)).toEqual({ data: [] });
    const cohorts = await getJson<{ data: Array<{ name: string }> }>("/cohorts/admin", headers);
    expect(cohorts.data.map((c) => c.name)).not.toContain("Crash cohort");
    expect(await getJson<{ studentCount: number }>("/students/summary", headers)).toEqual(before);

    // And the database still takes the same import whole.
    const again = await fetch(`${baseUrl}/api/flag-upload/commit-weekly-data`, { method: "POST", headers, body: weekFiles(school) });
    expect(again.status, await again.clone().text()).toBe(200);
    expect(((await again.json()) as { summary: { newStudentsCreatedCount: number } }).summary.newStudentsCreatedCount).toBe(STUDENTS);
  });
});
