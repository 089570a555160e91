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
        "apps/server/src/modules/auth/login.test.ts": 'vi.mock("../users/users.repository.js");\n',
        "apps/server/src/db/seed/demo-seed.ts": 'import { findUser } from "../../modules/users/users.repository.js";\n',
      }),
    );
    expect(problems.map((p) => `${p.file} ${p.rule}`)).toEqual([
      "apps/server/src/db/seed/demo-seed.ts:1 no-foreign-repository",
      "apps/server/src/modules/auth/auth.repository.ts:1 no-foreign-repository",
      "apps/server/src/modules/auth/login.test.ts:1 no-foreign-repository",
    ]);
    expect(problems[0].message).toContain("code outside modules/ imports the users repository");
    expect(problems[1].message).toContain("module auth imports the users repository");
  });
});

describe("isKebabName", () => {
  it.each(["trend-chart.tsx", "students.routes.test.ts", "vite.config.ts", "006-outbox.ts", ".gitignore", "README.md", "env.d.ts"])(
    "accepts %s",
    (name) => expect(isKebabName(name)).toBe(true),
  );
  it.each(["TrendChart.tsx", "trend_chart.ts", "trend--chart.ts", "Users", "notes.MD"])("refuses %s", (name) =>
    expect(isKebabName(name)).toBe(false),
  );
});
