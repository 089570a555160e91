/**
 * The young generation of the server's worker threads (the embedded engine's and each weekly
 * import's): 12 MB, i.e. 4 MB semi-spaces, where V8 lets one grow to 48 MB on a machine with
 * a few GB. A young generation grown once stays resident, in every thread. With the import
 * worker's collections (import-worker.ts), the 25,000-student benchmark import peaked at
 * 592–605 MB; with either alone, 626–694 MB (session 10, before the report rows' shapes were
 * mended, which took the peak to 523–535 MB). The main thread keeps V8's default: there a
 * small young generation promoted more into the old one, whose collections then held the
 * event loop for up to 84 ms (README, Performance).
 */
export const WORKER_YOUNG_GENERATION_MB = 12;
