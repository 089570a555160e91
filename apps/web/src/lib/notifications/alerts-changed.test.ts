import type { Notification } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { createQueryClient } from "../query-client";
import { queryKeys } from "../query-keys";
import { refreshAlertsOnChange } from "./alerts-changed";

const at = "2026-11-25T10:00:00.000Z";
const filled = () => {
  const client = createQueryClient();
  client.setQueryData(queryKeys.alerts.list({ page: 1 }), { data: [] });
  client.setQueryData(queryKeys.alerts.summary({ schoolId: null, cohortId: null }), { open: 0 });
  client.setQueryData(queryKeys.alerts.student(7), { data: [] });
  client.setQueryData(queryKeys.alertRules, { rules: [] });
  client.setQueryData(queryKeys.students.list({}), { data: [] });
  return client;
};
const invalidated = (client: ReturnType<typeof createQueryClient>, key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;

describe("refreshAlertsOnChange", () => {
  it("marks every alert query stale on ALERTS_CHANGED (list, summary, a student's), and nothing else", () => {
    const client = filled();
    refreshAlertsOnChange(client, { id: 0, type: "ALERTS_CHANGED", createdAt: at });
    expect(invalidated(client, queryKeys.alerts.list({ page: 1 }))).toBe(true);
    expect(invalidated(client, queryKeys.alerts.summary({ schoolId: null, cohortId: null }))).toBe(true);
    expect(invalidated(client, queryKeys.alerts.student(7))).toBe(true);
    expect(invalidated(client, queryKeys.alertRules)).toBe(false);
    expect(invalidated(client, queryKeys.students.list({}))).toBe(false);
  });

  it("leaves the alerts alone on any other notification", () => {
    const client = filled();
    for (const n of [
      { id: 0, type: "CONNECTED", createdAt: at },
      { id: 0, type: "STREAM_CLOSED", reason: "TOKEN_EXPIRED", createdAt: at },
    ] satisfies Notification[]) {
      refreshAlertsOnChange(client, n);
    }
    expect(invalidated(client, queryKeys.alerts.list({ page: 1 }))).toBe(false);
    expect(invalidated(client, queryKeys.alerts.summary({ schoolId: null, cohortId: null }))).toBe(false);
  });
});
