/** Lets other requests run between chunks of a long job. */
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Rows a long loop handles between two yields: a few milliseconds of work. */
export const YIELD_EVERY = 2000;
