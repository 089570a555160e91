import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isKebabName, lintStructure } from "./lint-structure.mjs";

// Each guard runs over a small tree in a temporary folder: a clean one, and one with a violation.

let root;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

function tree(files) {
  root = mkdtempSync(join(tmpdir(), "lint-structure-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const CLEAN = {
  "apps/web/src/features/users/components/user-list.tsx": 'import { Stat } from "../../../components/stat-card";\nimport { csv } from "../../../lib/csv";\nimport { api } from "../api/get-users";\n',
  "apps/web/src/features/users/components/user-list.module.css": ".list {}\n",
  "apps/web/src/features/dashboard/api/get-trend.ts": 'import { apiRequest } from "../../../lib/api-client";\n',
  "apps/web/src/components/stat-card.tsx": "export const Stat = 1;\n",
  "apps/server/src/modules/users/users.service.ts": 'import { findUser } from "./users.repository.js";\n',
  "apps/server/src/modules/users/users.repository.ts": "export const findUser = 1;\n",
  "apps/server/src/modules/users/users-edit.test.ts": 'import { findUser } from "./users.repository.js";\n',
  "apps/server/src/modules/auth/auth.service.ts": 'import { findUser } from "../users/users.service.js";\n',
  "apps/server/src/cli/create-user.ts": 'import { createUser } from "../modules/users/users.service.js";\n',
  "apps/server/src/modules/scope/scope.ts": 'import type { DbExecutor } from "../../db/executor.js";\n',
  "apps/server/src/modules/settings/settings.service.ts": 'import { resolveScope } from "../scope/scope.js";\nimport { badRequest } from "../../lib/errors.js";\n',
  "apps/server/src/modules/settings/settings.db.test.ts": 'import { useTestApp } from "../../../test/test-app.js";\n',
  "apps/server/src/lib/errors.ts": "export const badRequest = 1;\n",
  "apps/server/src/lib/csv/read-table.ts": 'import { badRequest } from "../errors.js";\n',
  "apps/server/src/db/executor.ts": 'import type { Clock } from "../lib/clock.js";\n',
  "apps/server/src/context.ts": 'import type { DatabaseHandle } from "./db/connection.js";\n',
  "apps/server/test/test-app.ts": 'import type { ServerContext } from "../src/context.js";\nimport { x } from "../src/modules/settings/settings.service.js";\n',
  "apps/server/tsconfig.build.json": "{}\n",
  "packages/contract/README.md": "# contract\n",
  "packages/contract/.gitignore": "dist/\n",
  "bench/src/env.d.ts": "export {};\n",
  "apps/web/node_modules/SomePackage/Index.js": "ignored\n",
};

describe("lintStructure", () => {
  it("passes a tree that keeps every rule", () => {
    expect(lintStructure(tree(CLEAN))).toEqual([]);
  });

  it("kebab-case: reports a folder and a non-source file, leaving source file names to oxlint", () => {
    const problems = lintStructure(
      tree({
        ...CLEAN,
        "apps/web/src/features/users/UserList/index.ts": "export {};\n",
        "apps/web/src/features/users/components/UserList.module.css": ".list {}\n",
        "bench/src/BigRun.ts": "export {};\n",
      }),
    );
    expect(problems).toEqual([
      expect.objectContaining({ file: "apps/web/src/features/users/UserList", rule: "kebab-case" }),
      expect.objectContaining({ file: "apps/web/src/features/users/components/UserList.module.css", rule: "kebab-case" }),
    ]);
    expect(problems[0].message).toContain('folder "UserList" is not kebab-case');
  });

  it("no-cross-feature-import: reports a feature importing another, with file, line and both features", () => {
    const problems = lintStructure(
      tree({
        ...CLEAN,
        "apps/web/src/features/dashboard/components/trend.tsx":
          'import { Stat } from "../../../components/stat-card";\nimport { UserList } from "../../users/components/user-list";\n',
        "apps/web/src/features/settings/page.tsx": 'export { api } from "../users/api/get-users";\nconst lazy = () => import("../dashboard/api/get-trend");\n',
      }),
    );
    expect(problems.map((p) => `${p.file} ${p.rule}`)).toEqual([
      "apps/web/src/features/dashboard/components/trend.tsx:2 no-cross-feature-import",
      "apps/web/src/features/settings/page.tsx:1 no-cross-feature-import",
      "apps/web/src/features/settings/page.tsx:2 no-cross-feature-import",
    ]);
    expect(problems[0].message).toContain("features/dashboard imports features/users");
  });

  it("no-foreign-repository: reports another module's repository, from a module, a test and code outside modules", () => {
    const problems = lintStructure(
      tree({
        ...CLEAN,
        "apps/server/src/modules/auth/auth.repository.ts": 'import {\n  findUser,\n} from "../users/users.repository.js";\n',
        "apps/server/src/modules/auth/login.test.ts": 'const real = await vi.importActual("../users/users.repository.js");\n',
        "apps/server/src/cli/seed-demo.ts": 'import { findUser } from "../modules/users/users.repository.js";\n',
      }),
    );
    expect(problems.map((p) => `${p.file} ${p.rule}`)).toEqual([
      "apps/server/src/cli/seed-demo.ts:1 no-foreign-repository",
      "apps/server/src/modules/auth/auth.repository.ts:1 no-foreign-repository",
      "apps/server/src/modules/auth/login.test.ts:1 no-foreign-repository",
    ]);
    expect(problems[0].message).toContain("code outside modules/ imports the users repository");
    expect(problems[1].message).toContain("module auth imports the users repository");
  });

  it("no-module-cycle: reports a loop through three modules once, with the file and line of each step", () => {
    const problems = lintStructure(
      tree({
        ...CLEAN,
        "apps/server/src/modules/scope/scope.ts": 'import type { DbExecutor } from "../../db/executor.js";\nimport {\n  readDemo,\n} from "../schools/schools.service.js";\n',
        "apps/server/src/modules/schools/schools.service.ts": 'import { saveSetting } from "../settings/settings.service.js";\n',
      }),
    );
    expect(problems.map((p) => `${p.file} ${p.rule}`)).toEqual(["apps/server/src/modules/schools/schools.service.ts:1 no-module-cycle"]);
    expect(problems[0].message).toBe(
      "modules/schools, modules/scope, modules/settings import each other; one loop: " +
        "modules/schools → modules/settings (apps/server/src/modules/schools/schools.service.ts:1), " +
        "modules/settings → modules/scope (apps/server/src/modules/settings/settings.service.ts:1), " +
        "modules/scope → modules/schools (apps/server/src/modules/scope/scope.ts:2). " +
        "Dependencies run one way: move what both need down into the lower one (or lib, db, the contract)",
    );
  });

  it("no-module-cycle: counts lib, db and context.ts as units, type imports included; tests are left out", () => {
    const problems = lintStructure(
      tree({
        ...CLEAN,
        "apps/server/src/lib/json-rows.ts": 'import type { Database } from "../db/schema.js";\n',
        "apps/server/src/db/schema.ts": 'import { inChunks } from "../lib/json-rows.js";\n',
        // A test may import what it checks from anywhere: no loop through it.
        "apps/server/src/lib/errors.test.ts": 'import { resolveScope } from "../modules/scope/scope.js";\n',
        "apps/server/src/modules/scope/scope.test.ts": 'import { badRequest } from "../../lib/errors.js";\n',
      }),
    );
    expect(problems.map((p) => `${p.file} ${p.rule}`)).toEqual(["apps/server/src/db/executor.ts:1 no-module-cycle"]);
    expect(problems[0].message).toMatch(/^db, lib import each other; one loop: db → lib \(apps\/server\/src\/db\/executor\.ts:1\), lib → db \(apps\/server\/src\/lib\/json-rows\.ts:1\)\./);
  });

  it("no-module-in-lib-db: reports lib importing a module and db importing context.ts (a loop here too), not their tests", () => {
    const problems = lintStructure(
      tree({
        ...CLEAN,
        "apps/server/src/lib/csv/decode-text.ts": 'import { ReportRejected } from "../../modules/imports/reports/report-types.js";\n',
        "apps/server/src/modules/imports/reports/report-types.ts": "export class ReportRejected {}\n",
        "apps/server/src/db/seed/first-run.ts": 'import { sql } from "kysely";\nimport type { ServerContext } from "../../context.js";\n',
        "apps/server/src/db/seed/first-run.db.test.ts": 'import { useTestApp } from "../../../test/test-app.js";\nimport { x } from "../../modules/settings/settings.service.js";\n',
      }),
    );
    expect(problems.map((p) => `${p.file} ${p.rule}`)).toEqual([
      "apps/server/src/context.ts:1 no-module-cycle",
      "apps/server/src/db/seed/first-run.ts:2 no-module-in-lib-db",
      "apps/server/src/lib/csv/decode-text.ts:1 no-module-in-lib-db",
    ]);
    expect(problems[1].message).toContain('db/ imports context.ts ("../../context.js")');
    expect(problems[2].message).toContain('lib/ imports modules/imports ("../../modules/imports/reports/report-types.js")');
  });
});

describe("db-test-name", () => {
  it("names a server test that opens a database, directly, through a helper or by testDatabaseUrl(), *.db.test.ts, and only those", () => {
    const problems = lintStructure(
      tree({
        ...CLEAN,
        "apps/server/test/test-app.ts": 'import { openDatabase } from "../src/db/connection.js";\n',
        "apps/server/src/db/connection.ts": "export const openDatabase = 1;\n",
        "apps/server/test/world.ts": 'import { useTestApp } from "./test-app.js";\n',
        "apps/server/test/only-types.ts": 'import type { TestApp } from "./test-app.js";\n',
        "apps/server/src/modules/users/direct.test.ts": 'import { useTestApp } from "../../../test/test-app.js";\n',
        "apps/server/src/modules/users/through-helper.test.ts": 'import { world } from "../../../test/world.js";\n',
        "apps/server/src/modules/users/own-server.test.ts": 'import { testDatabaseUrl } from "../../config.js";\nconst url = testDatabaseUrl();\n',
        "apps/server/src/modules/users/types-only.test.ts": 'import { x } from "../../../test/only-types.js";\n',
        "apps/server/src/modules/users/pure.db.test.ts": 'import { findUser } from "./users.service.js";\n',
        "apps/server/src/modules/users/right.db.test.ts": 'import { useTestApp } from "../../../test/test-app.js";\n',
      }),
    );
    expect(problems.filter((p) => p.rule === "db-test-name").map((p) => p.file)).toEqual([
      "apps/server/src/modules/users/direct.test.ts",
      "apps/server/src/modules/users/own-server.test.ts",
      "apps/server/src/modules/users/pure.db.test.ts",
      "apps/server/src/modules/users/through-helper.test.ts",
    ]);
  });
});

describe("no-module-mock", () => {
  it("reports vi.mock and vi.doMock in server tests and their helpers, not in web tests", () => {
    const problems = lintStructure(
      tree({
        ...CLEAN,
        "apps/server/src/modules/auth/login.test.ts": 'import { vi } from "vitest";\nvi.mock("../../lib/password-hash.js");\n',
        "apps/server/test/helper.ts": 'vi.doMock("../src/lib/clock.js", () => ({}));\n',
        "apps/server/src/modules/auth/spy.test.ts": 'vi.spyOn(hash, "verifyPassword");\n',
        "apps/web/src/features/auth/login.test.tsx": 'vi.mock("../api/login");\n',
      }),
    );
    expect(problems.filter((p) => p.rule === "no-module-mock").map((p) => p.file)).toEqual([
      "apps/server/src/modules/auth/login.test.ts:2",
      "apps/server/test/helper.ts:1",
    ]);
  });
});

describe("isKebabName", () => {
  it.each(["trend-chart.tsx", "students.routes.db.test.ts", "vite.config.ts", "006-outbox.ts", ".gitignore", "README.md", "env.d.ts"])(
    "accepts %s",
    (name) => expect(isKebabName(name)).toBe(true),
  );
  it.each(["TrendChart.tsx", "trend_chart.ts", "trend--chart.ts", "Users", "notes.MD"])("refuses %s", (name) =>
    expect(isKebabName(name)).toBe(false),
  );
});
