import { defineConfig } from "vitest/config";

// Browser journeys: one built server and one Chromium, files run one after another.
export default defineConfig({
  test: {
    name: "e2e",
    root: new URL(".", import.meta.url).pathname,
    include: ["**/*.e2e.test.ts"],
    environment: "node",
    globalSetup: ["./global-setup.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
