import { defineConfig } from "vitest/config";

// One run covers every workspace; the browser journeys have their own config (apps/web/e2e).
export default defineConfig({
  resolve: { conditions: ["tally-source"] },
  ssr: { resolve: { conditions: ["tally-source"], externalConditions: ["tally-source"] } },
  test: {
    // Vitest's default on a 2-core CI machine is one worker (cores − 1); a database test spends
    // much of its time waiting on PGlite's worker thread or on PostgreSQL, so two files at once
    // keep both cores busy (embedded run: 1,760 tests in 512 s on an idle CI machine; the
    // PostgreSQL run 265 s). Two suites on PostgreSQL once failed a migration when a sibling
    // suite dropped its schema: see apps/server/src/db/schema-introspector.ts.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: "contract", include: ["packages/contract/src/**/*.test.ts"], environment: "node" },
      },
      {
        extends: true,
        test: { name: "tools", include: ["tools/**/*.test.mjs"], environment: "node" },
      },
      {
        extends: true,
        test: {
          name: "server",
          include: ["apps/server/src/**/*.test.ts", "apps/server/test/**/*.test.ts"],
          exclude: ["**/*.db.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Tests that open a database (the lint holds the name): `npm run test:db` runs these on PostgreSQL.
        extends: true,
        test: {
          name: "server-db",
          include: ["apps/server/src/**/*.db.test.ts", "apps/server/test/**/*.db.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: "./apps/web/vite.config.ts",
        test: {
          name: "web",
          root: "./apps/web",
          include: ["src/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
          setupFiles: ["./src/testing/setup.ts"],
          // Lazy route chunks and queries on a busy 2-core machine: see setup.ts.
          testTimeout: 15_000,
        },
      },
    ],
  },
});
