import { LOAD_P99_MS, type LoadBenchResult } from "./load-bench.js";

/** Issue 15's goal on PostgreSQL: at least this many requests a second at p99 ≤ 50 ms. */
const POSTGRES_GOAL_RPS = 500;

export function formatLoadResult(r: LoadBenchResult): string[] {
  const lines = [
    "",
    `Load, ${r.engine}, ${r.instances} instance${r.instances > 1 ? "s" : ""}: ${r.users} signed-in users of every role, dashboard requests`,
    "  asked/s    done/s   p50 ms   p99 ms   max ms  errors",
  ];
  for (const s of r.steps) {
    lines.push(
      `  ${String(s.rate).padStart(7)} ${s.rps.toFixed(0).padStart(9)} ${String(s.p50).padStart(8)} ${String(s.p99).padStart(8)} ${String(s.max).padStart(8)} ${String(s.errors + s.non2xx).padStart(7)}`,
    );
  }
  lines.push(
    r.best
      ? `  highest rate with p99 ≤ ${LOAD_P99_MS} ms and no error: ${r.best.rps.toFixed(0)} requests/s (p99 ${r.best.p99} ms)`
      : `  no rate met p99 ≤ ${LOAD_P99_MS} ms with no error`,
  );
  lines.push(`  server memory (MB, per instance): ${r.memoryMb.before.map((m) => m.toFixed(0)).join(" + ")} before the steps, ${r.memoryMb.after.map((m) => m.toFixed(0)).join(" + ")} after`);
  if (r.soak) {
    const growth = r.soak.endMb - r.soak.warmMb;
    lines.push(
      `  soak ${r.soak.minutes} min at ${r.soak.rate}/s: ${r.soak.rps.toFixed(0)}/s, p99 ${r.soak.p99} ms, ${r.soak.errors} errors; memory ${r.soak.warmMb.toFixed(0)} → ${r.soak.endMb.toFixed(0)} MB (growth ${growth.toFixed(0)} MB, limit 50)`,
    );
  }
  if (r.kill) {
    const k = r.kill;
    lines.push(
      `  one instance killed mid-run at ${k.rate}/s: ${k.errors + k.non2xx} failed requests (${k.retried} reads sent on to the survivor, ${k.failedAtBalancer} refused), survivor answered ${k.survivorAnswered}; sign-ins ${k.writesAcknowledged} of ${k.writes} acknowledged, ${k.writesLost} lost`,
    );
  }
  return lines;
}

export function loadMissesOf(r: LoadBenchResult): string[] {
  const at = `load ${r.engine}`;
  const misses: string[] = [];
  if (!r.best) misses.push(`${at}: no rate met p99 ≤ ${LOAD_P99_MS} ms`);
  else if (r.engine === "postgres" && r.best.rps < POSTGRES_GOAL_RPS) misses.push(`${at}: ${r.best.rps.toFixed(0)} requests/s < ${POSTGRES_GOAL_RPS}`);
  if (r.soak && (r.soak.endMb - r.soak.warmMb > 50 || r.soak.errors > 0)) misses.push(`${at}: soak memory growth or errors`);
  if (r.kill && (r.kill.errors + r.kill.non2xx > 0 || r.kill.writesLost > 0)) misses.push(`${at}: requests failed or writes lost when an instance was killed`);
  return misses;
}
