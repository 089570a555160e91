/** Lets other requests run between chunks of a long job. */
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Rows a long loop handles between two checks of the clock: few, since a row can cost tens of
 * microseconds (name folding, Map look-ups) and a check costs well under one.
 */
const CHECK_EVERY = 32;
/** How long a loop may run before it lets other requests in. */
const SLICE_MS = 8;

/**
 * For long loops: `if (turn.due()) await turn.yield()` lets other requests run about every
 * 8 ms, whatever a row costs (a fixed row count was 70–130 ms apart on a busy machine).
 */
export function loopTurns(): { due(): boolean; yield(): Promise<void> } {
  let rows = 0;
  let since = performance.now();
  return {
    due: () => ++rows % CHECK_EVERY === 0 && performance.now() - since > SLICE_MS,
    yield: async () => {
      await yieldToLoop();
      since = performance.now();
    },
  };
}

/** `items.forEach(fn)` in time slices (see loopTurns). */
export async function eachInTurns<T>(items: Iterable<T>, fn: (item: T) => void): Promise<void> {
  const turn = loopTurns();
  for (const item of items) {
    if (turn.due()) await turn.yield();
    fn(item);
  }
}
