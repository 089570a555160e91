import { monitorEventLoopDelay } from "node:perf_hooks";

export interface Timing {
  p50: number;
  p95: number;
  max: number;
}

/** p50, p95 and max of durations in ms (nearest-rank percentiles). */
export function summarize(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
  return { p50: rank(50), p95: rank(95), max: sorted[sorted.length - 1] ?? 0 };
}

/**
 * Watches the event loop of this process while the benchmark runs: a query that blocked it
 * (the embedded engine's work leaking onto the main thread, a slow serialisation) shows up
 * as a long delay here.
 */
export interface LoopDelay {
  /** Longest interval between two ticks of the monitor's timer (it includes the tick itself). */
  maxMs: number;
  p99Ms: number;
  /** Longest time the loop was held up: the longest interval less the tick it was waiting for. */
  blockedMs: number;
}

/** The monitor's timer: every interval it records is at least this long. */
export const LOOP_TICK_MS = 5;

export function watchEventLoop(): { stop(): LoopDelay } {
  const histogram = monitorEventLoopDelay({ resolution: LOOP_TICK_MS });
  histogram.enable();
  return {
    stop() {
      histogram.disable();
      // The histogram counts in nanoseconds the time between consecutive ticks.
      const maxMs = histogram.max / 1e6;
      return { maxMs, p99Ms: histogram.percentile(99) / 1e6, blockedMs: Math.max(0, maxMs - LOOP_TICK_MS) };
    },
  };
}

/**
 * The event-loop delay of this process while it does nothing: what the machine's other work
 * alone costs, to read the figures measured under load against.
 */
export async function idleEventLoop(ms: number): Promise<LoopDelay> {
  const loop = watchEventLoop();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return loop.stop();
}
