import type { Worker } from "node:worker_threads";
import { AppError, badRequest } from "../../lib/errors.js";
import { inChunks } from "../../lib/in-chunks.js";
import { startModuleWorker } from "../../lib/module-worker.js";
import { WORKER_YOUNG_GENERATION_MB } from "../../lib/worker-heap.js";
import type { UploadedReport } from "../../lib/report-upload.js";
import type { PlanCohort } from "./import-plan.js";
import type { Lookups, MatchSummary, PlanSummary, ReadSummary } from "./import-worker-steps.js";
import type { WorkerCall, WorkerReply } from "./import-worker.js";
import type { KnownTeam, NamedRef } from "./roster-matching.js";

/** Rows per message to the worker: receiving a message decodes it in one go on the receiving thread. */
const SLICE = 1_000;
/**
 * Students written per round (a statement per table each): decoding a slice of 2,500 took
 * 30 ms on the main thread.
 */
const WRITE_SLICE = 1_000;

const buffersOf = (file: UploadedReport) => file.blocks.map((b) => b.buffer as ArrayBuffer);

/**
 * One import's reading, matching and planning, in a worker thread whose heap is capped
 * (IMPORT_WORKER_HEAP_MB) and given back when the import ends: the reports' rows and the
 * garbage of parsing them never enter the server's own heap, and their work never holds its
 * event loop. The main thread looks students and records up in between and writes the plan.
 */
export class ImportWorkerClient {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private failure: Error | null = null;

  constructor(heapMb: number) {
    this.worker = startModuleWorker(import.meta.url, "import-worker", {
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    this.worker.on("message", (reply: WorkerReply) => {
      const call = this.pending.get(reply.id);
      if (!call) return;
      this.pending.delete(reply.id);
      if ("result" in reply) call.resolve(reply.result);
      else if (reply.error.rejected) {
        call.reject(reply.error.rejected === 413 ? new AppError(413, "PAYLOAD_TOO_LARGE", reply.error.message) : badRequest(reply.error.message));
      } else call.reject(new Error(`Import worker: ${reply.error.message}`));
    });
    this.worker.on("error", (error: Error & { code?: string }) => {
      this.fail(
        error.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? new AppError(
              413,
              "PAYLOAD_TOO_LARGE",
              `These reports need more than the ${heapMb} MB this server gives one import. Split them into smaller files (for example by school) and import each, or ask the administrator to raise IMPORT_WORKER_HEAP_MB.`,
            )
          : error,
      );
    });
    this.worker.on("exit", (code) => this.fail(new Error(`Import worker ended (exit code ${code})`)));
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const [id, call] of this.pending) {
      this.pending.delete(id);
      call.reject(this.failure);
    }
  }

  private call<T>(method: WorkerCall["method"], args: unknown[], transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ id, method, args } satisfies WorkerCall, transfer);
    });
  }

  /**
   * Lends the worker the meeting report's blocks (a transfer, not a copy: copying 12 MB into
   * a message held the event loop for 60 ms) and takes them back with whom to look up.
   */
  async readMeeting(file: UploadedReport): Promise<ReadSummary> {
    const read = await this.call<ReadSummary>("readMeeting", [{ name: file.name, blocks: file.blocks }], buffersOf(file));
    file.blocks = read.blocks;
    return read;
  }

  /** Reads the other two reports in the worker while this thread looks students up. */
  async readPlatform(progress: UploadedReport, reflection: UploadedReport): Promise<void> {
    const lent = [progress, reflection].map((f) => ({ name: f.name, blocks: f.blocks }));
    const [p, r] = await this.call<Uint8Array[][]>("readPlatform", lent, [...buffersOf(progress), ...buffersOf(reflection)]);
    progress.blocks = p ?? [];
    reflection.blocks = r ?? [];
  }

  /** Sends looked-up rows ahead of the step that needs them, a slice per message. */
  async put<K extends keyof Lookups>(name: K, rows: Lookups[K]): Promise<void> {
    for (const slice of inChunks(rows as unknown[], SLICE)) await this.call("put", [name, slice]);
  }

  match(schools: NamedRef[], teams: KnownTeam[]): Promise<MatchSummary> {
    return this.call("match", [schools, teams]);
  }

  makePlan(cohort: PlanCohort, week: number): Promise<PlanSummary> {
    return this.call("makePlan", [cohort, week]);
  }

  /**
   * The plan's students with something to write, as JSON slices of WRITE_SLICE students
   * (transferred, not copied): the plan outlives this worker (preview-cache.ts; import-writer.ts decodes it).
   */
  planSlices(): Promise<Uint8Array[]> {
    return this.call("planSlices", [WRITE_SLICE]);
  }

  /** The preview reply as UTF-8 JSON, made in the worker. */
  previewJson(): Promise<Uint8Array> {
    return this.call("previewJson", []);
  }

  /** Ends the thread, which gives its memory back. */
  async close(): Promise<void> {
    this.failure ??= new Error("Import worker closed");
    await this.worker.terminate();
  }
}
