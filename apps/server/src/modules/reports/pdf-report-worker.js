// Builds report PDFs off the main thread: laying out and compressing a report takes tens of
// milliseconds of synchronous work, which would stall every other request (issue 13: the
// event loop never blocked more than 50 ms). Messages: { id, kind, model } in, { id, pdf } or
// { id, error } out; `kind` picks the layout (report, student), the report when left out.
import { parentPort } from "node:worker_threads";
import { renderReport } from "./pdf-report-layout.js";
import { renderStudentSummary } from "./student-summary-layout.js";

const layouts = { report: renderReport, student: renderStudentSummary };

// Warm up at start (font parsing, first layouts) so the first real report is not the slow one.
renderReport({
  title: "", filters: [], footerNote: "", generatedAt: "", generatedAtIso: new Date(0).toISOString(), generatedBy: "",
  totals: { schools: 0, students: 0, cohorts: 0, teams: 0 }, trend: [], trendTable: [], includeStudents: true,
  students: [{ name: "Warm Up", school: null, cohort: null, team: null, present: null, late: null, absent: null }], moreStudents: 0,
}).catch(() => undefined);

parentPort?.on("message", async ({ id, kind = "report", model }) => {
  try {
    const pdf = await layouts[kind](model);
    // A fresh buffer of its own, so it can be handed over without a copy.
    const bytes = new Uint8Array(pdf.length);
    bytes.set(pdf);
    parentPort?.postMessage({ id, pdf: bytes }, [bytes.buffer]);
  } catch (err) {
    parentPort?.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
