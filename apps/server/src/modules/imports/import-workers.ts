import type { Worker } from "node:worker_threads";
import { startModuleWorker } from "../../lib/module-worker.js";

/**
 * How long an idle import worker is kept. A worker's first import runs cold (its code not yet
 * optimised: reading took 3.3 s where a warm thread takes about half); a preview is usually
 * followed by its commit within minutes. Ended after that, the thread gives its memory back.
 */
export const IDLE_WORKER_MS = 5 * 60_000;

interface Idle {
  worker: Worker;
  heapMb: number;
  timer: NodeJS.Timeout;
}

let idle: Idle | null = null;

/** A warm idle worker with this heap limit, or a new one. */
export function takeImportWorker(heapMb: number): Worker {
  if (idle && idle.heapMb === heapMb) {
    const { worker, timer } = idle;
    clearTimeout(timer);
    idle = null;
    return worker;
  }
  return startModuleWorker(import.meta.url, "import-worker", { resourceLimits: { maxOldGenerationSizeMb: heapMb } });
}

/** Keeps a worker whose import ended cleanly for the next one; ends any other. */
export function returnImportWorker(worker: Worker, heapMb: number): void {
  worker.removeAllListeners("message").removeAllListeners("error").removeAllListeners("exit");
  if (idle) {
    void worker.terminate();
    return;
  }
  // An idle worker must not keep the process (or a test run) alive.
  worker.unref();
  const timer = setTimeout(() => {
    if (idle?.worker === worker) idle = null;
    void worker.terminate();
  }, IDLE_WORKER_MS);
  timer.unref();
  worker.on("error", () => void worker.terminate());
  worker.once("exit", () => {
    if (idle?.worker === worker) {
      clearTimeout(idle.timer);
      idle = null;
    }
  });
  idle = { worker, heapMb, timer };
}

/** Ends the idle worker (server shutdown). */
export async function endIdleImportWorker(): Promise<void> {
  const current = idle;
  idle = null;
  if (current) {
    clearTimeout(current.timer);
    await current.worker.terminate();
  }
}
