import { parentPort } from "node:worker_threads";
import { ImportWork, type ReadSummary } from "./import-work.js";
import { ReportRejected } from "./reports/report-types.js";

// A weekly import's worker thread (import-preparation.ts): calls { id, method, args } in,
// { id, result } or { id, error } out, one at a time. "reset" ends one import's work, so that
// the thread, its code warmed up, can serve the next import.

export interface WorkerCall {
  id: number;
  method: "readMeeting" | "readPlatform" | "put" | "match" | "makePlan" | "take" | "previewJson" | "reset";
  args: unknown[];
}
export interface WorkerError {
  message: string;
  /** Set for a refused report (the file's problem, said for people). */
  rejected?: 400 | 413;
}
export type WorkerReply = { id: number; result: unknown } | { id: number; error: WorkerError };

let work = new ImportWork();

/** Bytes go back without a copy: the preview's JSON, and the upload's blocks after reading. */
function transferList(result: unknown): ArrayBuffer[] {
  if (result instanceof Uint8Array) return [result.buffer as ArrayBuffer];
  if (Array.isArray(result) && result.every((r) => Array.isArray(r) && r.every((b) => b instanceof Uint8Array))) {
    return (result as Uint8Array[][]).flat().map((b) => b.buffer as ArrayBuffer);
  }
  const blocks = (result as Partial<ReadSummary> | null)?.blocks;
  return blocks ? blocks.map((b) => b.buffer as ArrayBuffer) : [];
}

parentPort?.on("message", async ({ id, method, args }: WorkerCall) => {
  try {
    if (method === "reset") work = new ImportWork();
    const result = method === "reset" ? null : await (work[method] as (...a: unknown[]) => unknown).apply(work, args);
    parentPort?.postMessage({ id, result } satisfies WorkerReply, transferList(result));
  } catch (err) {
    const error: WorkerError =
      err instanceof ReportRejected ? { message: err.message, rejected: err.statusCode } : { message: err instanceof Error ? (err.stack ?? err.message) : String(err) };
    parentPort?.postMessage({ id, error } satisfies WorkerReply);
  }
});
