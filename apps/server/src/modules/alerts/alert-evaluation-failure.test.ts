import { describe, expect, it, vi } from "vitest";
import type { ServerContext } from "../../context.js";
import { evaluateAlertsAfterChange } from "./alert-evaluation.service.js";

// The evaluation after a change never fails the change: its error goes to the context's log.

describe("evaluateAlertsAfterChange", () => {
  it("logs a failed evaluation on the context's log and resolves", async () => {
    const down = new Error("database down");
    const failing = new Proxy({}, { get: () => () => { throw down; } });
    const error = vi.fn();
    const ctx = { database: { db: failing }, clock: { now: () => new Date("2026-03-02T08:00:00Z") }, log: { error } } as unknown as ServerContext;
    await expect(evaluateAlertsAfterChange(ctx, { cohortIds: [7], batchId: 3 })).resolves.toBeUndefined();
    expect(error).toHaveBeenCalledWith({ err: down, cohortIds: [7], batchId: 3 }, "alert evaluation failed; the change stands");
  });
});
