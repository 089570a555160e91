import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { parentPort } from "node:worker_threads";
import { ImportWorkerSteps, type ReadSummary } from "./import-worker-steps.js";
import { ReportRejected } from "../../lib/csv/report-rejected.js";

// One weekly import's worker thread (import-worker-client.ts, which ends it with the import):
// calls { id, method, args } in, { id, result } or { id, error } out.

export interface WorkerCall {
  id: number;
  method: "readMeeting" | "readPlatform" | "put" | "match" | "makePlan" | "planSlices" | "previewJson";
  args: unknown[];
}
export interface WorkerError {
  message: string;
  /** Set for a refused report (the file's problem, said for people). */
  rejected?: 400 | 413;
}
export type WorkerReply = { id: number; result: unknown } | { id: number; error: WorkerError };

const work = new ImportWorkerSteps();

/** The bytes each answer carries go back without a copy: the upload's blocks, the preview's and the plan's JSON. */
const TRANSFERS: Partial<Record<WorkerCall["method"], (result: never) => Uint8Array[]>> = {
  readMeeting: (read: ReadSummary) => read.blocks,
  readPlatform: (blocks: Uint8Array[][]) => blocks.flat(),
  previewJson: (json: Uint8Array) => [json],
  planSlices: (slices: Uint8Array[]) => slices,
};

/**
 * A full collection after each step that leaves much garbage, once the step's answer is on its
 * way. On the bench's week, 61 MB were in use after reading the meeting report, of which 29 MB
 * live; after matching 87 MB, 60 MB live. V8, far under the worker's cap, would carry that
 * garbage into the next step and grow the heap for it: before the rows' shapes were mended the
 * server's peak was 626–633 MB without, 592–605 MB with all four; two of them (after reading,
 * or after matching and the preview) left it at 583–664 MB (README, Performance).
 */
const COLLECT_AFTER = new Set<WorkerCall["method"]>(["readMeeting", "readPlatform", "match", "previewJson"]);
// --expose-gc reaches only contexts made after it is set: this one, no thread already running.
setFlagsFromString("--expose-gc");
const collect: unknown = runInNewContext("typeof gc === 'function' ? gc : undefined");
// Loudly, so that every import test fails should a Node version stop exposing it this way.
if (typeof collect !== "function") throw new Error("import worker: --expose-gc did not expose gc()");

parentPort?.on("message", async ({ id, method, args }: WorkerCall) => {
  try {
    const result = await (work[method] as (...a: unknown[]) => unknown).apply(work, args);
    const transfer = (TRANSFERS[method]?.(result as never) ?? []).map((b) => b.buffer as ArrayBuffer);
    parentPort?.postMessage({ id, result } satisfies WorkerReply, transfer);
    if (COLLECT_AFTER.has(method)) collect();
  } catch (err) {
    const error: WorkerError =
      err instanceof ReportRejected ? { message: err.message, rejected: err.statusCode } : { message: err instanceof Error ? (err.stack ?? err.message) : String(err) };
    parentPort?.postMessage({ id, error } satisfies WorkerReply);
  }
});
