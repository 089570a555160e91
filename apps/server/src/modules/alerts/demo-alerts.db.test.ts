import type { AlertSummary } from "@tally/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { loginAs, useTestApp } from "../../../test/test-app.js";
import { loadDemoIntoEmptyDatabase } from "../../db/seed/first-run.js";
import { manualClock } from "../../lib/clock.js";
import { digestTick } from "../digests/digest-scheduler.js";
import { evaluateDemoAlerts } from "./demo-alerts.service.js";

// A fresh start seeds the demo, then evaluates its alerts once (server.ts, cli seed:demo): a new
// user's Needs attention is not empty, and the weekly digest due when the server starts sends
// the demo accounts nothing (the alerts are the demo's, opened in its own weeks in 2026).

// A Wednesday long after the demo's weeks: Monday's digest is due.
const clock = manualClock(new Date("2026-12-02T12:00:00Z"));
const t = useTestApp({ clock });
const password = "Demo-Alerts-Passw0rd!";
let lines: string[] = [];

beforeAll(async () => {
  const loaded = await loadDemoIntoEmptyDatabase(t.db, { dataDir: "/nonexistent", demoPassword: password });
  expect(loaded).toBeDefined();
  lines = await evaluateDemoAlerts(t.db, loaded!.result);
});

describe("the demo's alerts", () => {
  it("are raised once the seed committed, by several rules, as of the day after the demo's last week", async () => {
    const rows = await t.db.selectFrom("alerts").select(["rule", "opened_at", "condition_ended_at"]).execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.rule)).size).toBeGreaterThan(1);
    expect(new Set(rows.map((r) => new Date(r.opened_at).toISOString()))).toEqual(new Set(["2026-04-27T12:00:00.000Z"]));
    expect(rows.filter((r) => r.condition_ended_at !== null)).toEqual([]);
    expect(lines).toEqual([`Demo alerts: ${rows.length} raised as of 2026-04-27 (Needs attention).`]);
  });

  it("show in a demo school user's Needs attention", async () => {
    const { headers } = await loginAs(t.app, { username: "school", password });
    const summary = await t.app.inject({ method: "GET", url: "/api/alerts/summary", headers });
    expect(summary.statusCode, summary.body).toBe(200);
    // The dashboard's card and the header count read this total.
    expect(summary.json<AlertSummary>().total).toBeGreaterThan(0);
    const list = await t.app.inject({ method: "GET", url: "/api/alerts", headers });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<{ total: number }>().total).toBeGreaterThan(0);
  });

  it("send no digest e-mail when the server's first digest run comes", async () => {
    const result = await digestTick(t.ctx);
    expect(result).toMatchObject({ sent: 0, failed: 0 });
    expect(result?.empty).toBeGreaterThan(0);
    expect(await t.db.selectFrom("mail_outbox").select("id").execute()).toEqual([]);
  });
});
