import { PerformanceObserver } from "node:perf_hooks";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { watchEventLoop } from "./stats.js";

/** What a process sees of itself over a stretch of work. */
export interface ProbeReading {
  loop: { maxMs: number; p99Ms: number; blockedMs: number };
  /** CPU time of every thread of the process (the embedded engine's worker included). */
  cpuMs: number;
  /** Main-thread garbage collections: a long pause holds the event loop like any other work. */
  gc: GcPauses;
  heapPeakMb: number;
  /**
   * The longest holds of the event loop, as [start, end] in µs of the monotonic clock (the one
   * a --cpu-prof profile uses), to find in a profile what held it.
   */
  longestHolds: Array<[number, number]>;
}

/** Ticks a 5 ms timer and keeps the longest gaps between ticks. */
function watchHolds(keep = 8): () => Array<[number, number]> {
  const holds: Array<[number, number]> = [];
  let last = process.hrtime.bigint();
  const timer = setInterval(() => {
    const now = process.hrtime.bigint();
    const gap = Number(now - last) / 1e3;
    if (gap > 20_000) {
      holds.push([Number(last / 1000n), Number(now / 1000n)]);
      holds.sort((a, b) => b[1] - b[0] - (a[1] - a[0]));
      holds.length = Math.min(holds.length, keep);
    }
    last = now;
  }, 5);
  timer.unref();
  return () => {
    clearInterval(timer);
    return holds;
  };
}

/** Garbage collections of the main thread meanwhile: a long pause holds the event loop like any other work. */
export interface GcPauses {
  longestMs: number;
  totalMs: number;
  count: number;
}

export function watchGc(): { stop(): GcPauses } {
  const seen = { longestMs: 0, totalMs: 0, count: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      seen.longestMs = Math.max(seen.longestMs, entry.duration);
      seen.totalMs += entry.duration;
      seen.count += 1;
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  return {
    stop() {
      observer.disconnect();
      return seen;
    },
  };
}

/** Starts watching this process; the returned function ends it and gives the reading. */
export function startProbe(): () => ProbeReading {
  const loop = watchEventLoop();
  const stopHolds = watchHolds();
  const cpu0 = process.cpuUsage();
  const gcWatch = watchGc();
  let heapPeak = process.memoryUsage().heapUsed;
  const heapTimer = setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)), 50);
  heapTimer.unref();
  return () => {
    const reading = loop.stop();
    const gc = gcWatch.stop();
    clearInterval(heapTimer);
    const cpu = process.cpuUsage(cpu0);
    return { loop: reading, cpuMs: (cpu.user + cpu.system) / 1000, gc, heapPeakMb: heapPeak / 1024 / 1024, longestHolds: stopHolds() };
  };
}

export interface MemoryReading {
  beforeMb: number;
  sampledPeakMb: number;
  /** The kernel's high-water mark (VmHWM), reset at the start where Linux allows it. */
  hwmMb: number | null;
  hwmReset: boolean;
}

function statusKb(pid: number | "self", key: "VmRSS" | "VmHWM"): number | null {
  try {
    const match = new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

export function residentMb(pid: number | "self"): number {
  return (statusKb(pid, "VmRSS") ?? 0) / 1024;
}

/** Peak resident memory of a process (sampled every 50 ms, and VmHWM) until the returned function is called. */
export function watchProcessMemory(pid: number | "self"): () => MemoryReading {
  let hwmReset = false;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    hwmReset = true;
  } catch {
    // Not Linux, or not allowed: the sampled peak still stands.
  }
  const before = statusKb(pid, "VmRSS") ?? 0;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, statusKb(pid, "VmRSS") ?? 0)), 50);
  return () => {
    clearInterval(timer);
    peak = Math.max(peak, statusKb(pid, "VmRSS") ?? 0);
    const hwm = statusKb(pid, "VmHWM");
    return { beforeMb: before / 1024, sampledPeakMb: peak / 1024, hwmMb: hwm === null ? null : hwm / 1024, hwmReset };
  };
}

/** CPU seconds (user + system, all threads) a process has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number | "self", opts: { reapedChildren?: boolean } = {}): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command (which may hold spaces) start after its closing parenthesis:
    // utime, stime, then the ended children's cutime, cstime, in clock ticks (100 a second).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ").map(Number);
    const own = (fields[11] ?? 0) + (fields[12] ?? 0);
    return (own + (opts.reapedChildren ? (fields[13] ?? 0) + (fields[14] ?? 0) : 0)) / 100;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds used so far by every process of this name (e.g. the PostgreSQL server and its
 * backends), with those of its children that have ended: a backend whose connection closed
 * is counted in its parent's reaped time, so the total never falls.
 */
export function cpuSecondsOfCommand(command: string): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === command) total += cpuSeconds(Number(entry), { reapedChildren: true });
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}
