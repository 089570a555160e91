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
    // The server suites run without isolation: one module graph per worker instead of loading
    // Fastify, zod and every module again for each of ~140 files (about 2 s a file), and their
    // embedded databases start from one migrated copy (test/database-template.setup.ts) rather
    // than running initdb and the migrations per file (~4 s → ~1 s). Each suite still builds its
    // own app and database; module mocks cannot work so (lint: no-module-mock, use vi.spyOn).
    // The web suites stay isolated: happy-dom documents and module mocks are per file there.
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
          isolate: false,
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
          globalSetup: ["./apps/server/test/database-template.setup.ts"],
          isolate: false,
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
          testTimeout: 30_000,
        },
      },
    ],
  },
});
