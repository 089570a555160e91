import { Worker } from "node:worker_threads";

/** One line of the students table. Percentages are whole numbers 0–100, null without records. */
export interface ReportModelStudent {
  name: string;
  school: string | null;
  cohort: string | null;
  team: string | null;
  present: number | null;
  late: number | null;
  absent: number | null;
}

/** One programme week: attended (present + late) per meeting type and its parts. */
export interface ReportModelWeek {
  week: number;
  mentor: number | null;
  advisor: number | null;
  mentorPresent: number | null;
  mentorLate: number | null;
  advisorPresent: number | null;
  advisorLate: number | null;
}

/** Everything the PDF prints, already checked and named by the server (pdf-report-layout.js draws it). */
export interface ReportModel {
  title: string;
  /** The filters in words, e.g. { label: "School", value: "Alder High" }. */
  filters: Array<{ label: string; value: string }>;
  /** Short text for the footer of every page. */
  footerNote: string;
  generatedAt: string;
  generatedAtIso: string;
  generatedBy: string;
  totals: { schools: number; students: number; cohorts: number; teams: number };
  trend: Array<{ week: number; mentor: number | null; advisor: number | null }>;
  trendTable: ReportModelWeek[];
  includeStudents: boolean;
  students: ReportModelStudent[];
  /** Students of the filters not in the table (past the limit). */
  moreStudents: number;
}

/** The one-student summary of a student's own export (student-summary-layout.js draws it); every value already text. */
export interface StudentSummaryModel {
  title: string;
  /** The small line above the title. */
  kicker: string;
  filters: Array<{ label: string; value: string }>;
  footerNote: string;
  generatedAt: string;
  generatedAtIso: string;
  generatedBy: string;
  profile: Array<[label: string, value: string | null]>;
  memberships: Array<{ kind: string; name: string; from: string; to: string }>;
  attendance: Array<{ date: string; week: string; cohort: string; meeting: string; status: string }>;
  weeks: Array<{ title: string; hours: string; flags: string[]; reflection: string | null; notes: string | null }>;
  /** Who handled the records: "School staff (role)", never a name or an address (issue 41). */
  access: Array<{ at: string; user: string; action: string }>;
}

type Reply = { id: number; pdf?: Uint8Array; error?: string };

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<number, { resolve(pdf: Buffer): void; reject(err: Error): void }>();

/** The one PDF worker of this process: started on first use, restarted if it dies. */
function pdfWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(new URL("./pdf-report-worker.js", import.meta.url));
  // Idle, it must not keep the process (or a test run) alive.
  w.unref();
  w.on("message", (reply: Reply) => {
    const job = pending.get(reply.id);
    if (!job) return;
    pending.delete(reply.id);
    if (reply.pdf) job.resolve(Buffer.from(reply.pdf.buffer, reply.pdf.byteOffset, reply.pdf.byteLength));
    else job.reject(new Error(`PDF rendering failed: ${reply.error ?? "unknown error"}`));
  });
  const fail = (err: Error) => {
    if (worker === w) worker = undefined;
    for (const [id, job] of pending) {
      pending.delete(id);
      job.reject(err);
    }
  };
  w.on("error", fail);
  w.on("exit", (code) => fail(new Error(`PDF worker exited with code ${code}`)));
  worker = w;
  return w;
}

/** The report as PDF bytes, laid out in a worker thread so the event loop stays free. */
export function renderReportPdf(model: ReportModel): Promise<Buffer> {
  return renderInWorker("report", model);
}

/** A student's summary as PDF bytes, in the same worker. */
export function renderStudentSummaryPdf(model: StudentSummaryModel): Promise<Buffer> {
  return renderInWorker("student", model);
}

function renderInWorker(kind: "report" | "student", model: ReportModel | StudentSummaryModel): Promise<Buffer> {
  const id = nextId++;
  return new Promise<Buffer>((resolve, reject) => {
    const w = pdfWorker();
    // Keep the process alive while a job is out; let it go when none is.
    w.ref();
    const settle = () => {
      if (pending.size === 0) w.unref();
    };
    pending.set(id, {
      resolve: (pdf) => {
        resolve(pdf);
        settle();
      },
      reject: (err) => {
        reject(err);
        settle();
      },
    });
    w.postMessage({ id, kind, model });
  });
}
