import type { ProcessFlagsResponse } from "@tally/contract";
import { expect } from "vitest";
import { filledBeforeAll } from "./filled-before-all.js";
import type { TestApp } from "./test-app.js";

// The flag uploader's two calls, as its page makes them (the forms come from importForm).

export function postProcessFlags(t: Pick<TestApp, "app">, headers: Record<string, string>, form: FormData) {
  return t.app.inject({ method: "POST", url: "/api/flag-upload/process-flags", headers, payload: form });
}

export function postConfirmFlags(t: Pick<TestApp, "app">, headers: Record<string, string>, body: unknown) {
  return t.app.inject({ method: "POST", url: "/api/flag-upload/confirm-flag-import", headers, payload: body as object });
}

/** The confirm body that keeps `rows` of a run (all of them unless told), each as the page sends it back. */
export function keepRows(run: ProcessFlagsResponse, cohortId: number, currentWeek: number, rows = run.data) {
  return {
    runId: run.runId,
    cohortId,
    currentWeek,
    verificationData: rows.map((r) => ({ studentId: r.studentId, benefit_assignment_id: r.benefit_assignment_id, calculated_flags: r.calculated_flags })),
  };
}

/** The three reports of a flag upload from their CSV texts; `overrides` replaces files by field. */
export function flagFiles(
  texts: { progress: string; reflections: string; crm: string },
  overrides: Record<string, { name: string; bytes: string }> = {},
) {
  return {
    progressReport: { name: "progress.csv", bytes: texts.progress },
    reflectionReport: { name: "reflections.csv", bytes: texts.reflections },
    attendanceReport: { name: "crm.csv", bytes: texts.crm },
    ...overrides,
  };
}

/** The run `process` makes (200), made once before the tests of the describe block that calls this. */
export function processedRun(process: () => Promise<{ statusCode: number; body: string; json<T>(): T }>): ProcessFlagsResponse {
  return filledBeforeAll(async () => {
    const res = await process();
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ProcessFlagsResponse>();
  });
}
