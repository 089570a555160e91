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
    hookTimeout: 180_000,
  },
});
