import { readFileSync } from "node:fs";

/**
 * How many files (sockets included) this process may have open: the soft RLIMIT_NOFILE, which
 * Node raises to the hard limit at start-up. Read from /proc on Linux; null where that cannot
 * be read (other systems) or the limit is "unlimited".
 */
export function openFileLimit(limitsFile = "/proc/self/limits"): number | null {
  let text: string;
  try {
    text = readFileSync(limitsFile, "utf8");
  } catch {
    return null;
  }
  const soft = /^Max open files\s+(\d+)\s/m.exec(text)?.[1];
  return soft === undefined ? null : Number(soft);
}
