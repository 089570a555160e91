import { defineConfig } from "vitest/config";

// Browser journeys: files change their server's data, so each worker has its own built server
// (global-setup.ts) and runs its files one after another on it; two workers run two files at a
// time, each file with its own Chromium. VITEST_POOL_ID picks the worker's server.
export default defineConfig({
  test: {
    name: "e2e",
    root: new URL(".", import.meta.url).pathname,
    include: ["**/*.e2e.test.ts"],
    environment: "node",
    globalSetup: ["./global-setup.ts"],
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 60_000,
    // expect.poll waits as a person would, not Vitest's 1 s: with two journeys side by side on a
    // busy 2-core machine an undo or an import can take a few seconds to show.
    expect: { poll: { timeout: 15_000 } },
    hookTimeout: 180_000,
  },
});
