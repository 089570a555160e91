import { beforeAll } from "vitest";

/**
 * An object that a beforeAll fills in. A test file can take it (or destructure it) at the top,
 * where the value does not exist yet, and its tests read the filled-in object when they run.
 * Pass `holder` to keep nested objects that callers may already have taken (e.g. headers).
 */
export function filledBeforeAll<T extends object>(make: () => Promise<Partial<T>>, holder = {} as T): T {
  beforeAll(async () => {
    Object.assign(holder, await make());
  });
  return holder;
}
