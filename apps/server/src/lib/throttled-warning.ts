import type { FastifyBaseLogger } from "fastify";

/**
 * A warning for something that may happen thousands of times a second under attack (a refused
 * connection or stream): logged at once, then at most once per `intervalMs`, with how many
 * times it happened since the last line.
 */
export function throttledWarning(log: FastifyBaseLogger, message: string, intervalMs = 60_000): (fields?: object) => void {
  let lastLogged = Number.NEGATIVE_INFINITY;
  let times = 0;
  return (fields = {}) => {
    times += 1;
    const now = Date.now();
    if (now - lastLogged < intervalMs) return;
    log.warn({ ...fields, times }, message);
    lastLogged = now;
    times = 0;
  };
}
