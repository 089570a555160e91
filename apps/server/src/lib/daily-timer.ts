import type { Clock } from "./clock.js";

/** A time of day, server local (Tally has no programme time zone setting). */
export interface TimeOfDay {
  hour: number;
  minute: number;
}

// A clock that does not move (a test's) must not spin the timer: wait at least this long.
const MIN_DELAY_MS = 60_000;

const pad = (n: number) => String(n).padStart(2, "0");
/** The server-local calendar day of `d`, YYYY-MM-DD: the key a run is claimed by. */
export const localDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The next moment at `at` (server local) after `now`. */
export function nextRunAfter(now: Date, at: TimeOfDay): Date {
  const next = new Date(now);
  next.setHours(at.hour, at.minute, 0, 0);
  if (next.getTime() <= now.getTime()) next.setDate(next.getDate() + 1);
  return next;
}

export interface DailyTimer {
  /** Clears the timer; a run under way finishes (await it through the returned promise). */
  stop(): Promise<void>;
}

/**
 * Calls `run(day)` once a day at `at`, server local, with that day (YYYY-MM-DD). The timer is
 * unref'd (it never keeps the process alive); a run's failure goes to `onError` and the next
 * day's run is still scheduled. Exactly-once across instances is the caller's claim.
 */
export function startDailyTimer(clock: Clock, at: TimeOfDay, run: (day: string) => Promise<void>, onError: (err: unknown) => void): DailyTimer {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    const now = clock.now();
    const next = nextRunAfter(now, at);
    timer = setTimeout(() => {
      running = run(localDay(next)).catch(onError).finally(schedule);
    }, Math.max(MIN_DELAY_MS, next.getTime() - now.getTime()));
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
