import type { ApiBenchResult } from "./api-bench.js";
import { LOOP_TICK_MS } from "./stats.js";

/** Longest the event loop may be blocked while the benchmarks run. */
export const EVENT_LOOP_LIMIT_MS = 20;

const ms = (v: number) => v.toFixed(1).padStart(7);

/** The results as a fixed-width table, misses marked. */
export function formatResult(result: ApiBenchResult, iterations: number): string[] {
  const width = Math.max(...result.scenarios.map((s) => s.name.length), 10);
  const lines = [
    `${result.engine === "embedded" ? "Embedded (PGlite worker)" : "PostgreSQL"}: ${iterations} iterations each after warm-up`,
    `  ${"request".padEnd(width)}     p50     p95     max  loop blocked  target (p95)`,
  ];
  for (const s of result.scenarios) {
    const verdict = s.target === null ? "   (no target)" : s.p95 <= s.target ? `  ≤ ${s.target} ms  ok` : `  ≤ ${s.target} ms  MISS`;
    lines.push(`  ${s.name.padEnd(width)} ${ms(s.p50)} ${ms(s.p95)} ${ms(s.max)} ${ms(s.loopBlockedMs).padStart(13)}  ${verdict}`);
  }
  const loopOk = result.eventLoopBlockedMs <= EVENT_LOOP_LIMIT_MS;
  lines.push(
    `  event loop blocked, longest over the requests with targets: ${result.eventLoopBlockedMs.toFixed(1)} ms (limit ${EVENT_LOOP_LIMIT_MS} ms)  ${loopOk ? "ok" : "MISS"}`,
    `    (longest interval between the monitor's ${LOOP_TICK_MS} ms ticks ${result.eventLoopMaxMs.toFixed(1)} ms, less the tick it waited for)`,
  );
  return lines;
}

export function missesOf(result: ApiBenchResult): string[] {
  const misses = result.scenarios
    .filter((s) => s.target !== null && s.p95 > s.target)
    .map((s) => `${result.engine}: ${s.name} p95 ${s.p95.toFixed(1)} ms > ${s.target} ms`);
  if (result.eventLoopBlockedMs > EVENT_LOOP_LIMIT_MS) {
    misses.push(`${result.engine}: event loop blocked ${result.eventLoopBlockedMs.toFixed(1)} ms > ${EVENT_LOOP_LIMIT_MS} ms`);
  }
  return misses;
}
