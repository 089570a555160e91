// Structure guards that oxlint has no rule for (run by `npm run lint` after oxlint):
// - kebab-case: folder names, and the names of files oxlint does not read (css, json, md,
//   images…); oxlint's unicorn/filename-case checks the JavaScript and TypeScript file names.
// - no-cross-feature-import: apps/web/src/features/X never imports apps/web/src/features/Y.
// - no-foreign-repository: on the server only module Y imports modules/Y/*.repository; other
//   modules and cli, db, lib, plugins go through Y's service. Tests follow the same rule (a
//   module's tests may use its own repository; other data comes from test/factories.ts).
// - no-module-cycle: the server's units (each modules/<name>, and each other entry of
//   apps/server/src: lib, db, plugins, cli, context.ts, config.ts…) import each other one way
//   only, directly or through others; tests left out.
// - no-module-in-lib-db: apps/server/src/lib and db import no module and not context.ts (they
//   are the floor the modules stand on); tests left out.
// - db-test-name: a server test that opens a database (it imports test/test-app.ts or
//   db/connection.ts, directly or through a test helper, or names testDatabaseUrl()) is named
//   *.db.test.ts, and only such a test is: `npm run test:db` runs exactly these on PostgreSQL.
// - no-module-mock: server tests never vi.mock / vi.doMock a module. The server projects run
//   without isolation (one module graph per worker, see vitest.config.ts), where a module mock
//   would not reach modules an earlier suite loaded; spy on the export instead (vi.spyOn).
// oxlint's no-restricted-imports matches the written specifier only, so it cannot tell
// "../users/users.repository.js" from a module's own "./users.repository.js" without one
// override per module; these checks resolve each relative import to the file it names.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The workspaces whose names and imports are checked. */
export const ROOTS = ["apps", "packages", "bench", "tools"];
/** Build output, dependencies and local data: not part of the source tree. */
const SKIPPED_FOLDERS = new Set(["node_modules", "dist", "data", "coverage", "test-results"]);
/** Names the ecosystem fixes: tools look for them as they are. */
const ALLOWED_NAMES = new Set(["README.md", "LICENSE", "CHANGELOG.md", "Dockerfile", "__snapshots__"]);
/** Files oxlint reads; their names are unicorn/filename-case's to check. */
const SOURCE_FILE = /\.(?:[cm]?[jt]sx?)$/;
const KEBAB_PART = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Every file below the roots, as a path relative to `root` with "/" separators. */
export function listFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name) && !entry.name.startsWith(".")) walk(path);
      } else if (entry.isFile()) {
        files.push(path);
      }
    }
  };
  for (const top of ROOTS) {
    try {
      walk(top);
    } catch (error) {
      if (error.code !== "ENOENT") throw error;
    }
  }
  return files.sort();
}

/** True for "trend-chart", "students.routes.test", "vite.config", ".gitignore", "README.md". */
export function isKebabName(name) {
  if (name.startsWith(".") || ALLOWED_NAMES.has(name)) return true;
  return name.split(".").every((part) => KEBAB_PART.test(part));
}

/** Folders and non-source files whose names are not kebab-case. */
export function checkNames(files) {
  const problems = [];
  const seenFolders = new Set();
  for (const file of files) {
    const parts = file.split("/");
    parts.slice(0, -1).forEach((folder, i) => {
      const path = parts.slice(0, i + 1).join("/");
      if (seenFolders.has(path)) return;
      seenFolders.add(path);
      if (!isKebabName(folder)) {
        problems.push({ file: path, rule: "kebab-case", message: `folder "${folder}" is not kebab-case (lower-case words joined by "-")` });
      }
    });
    const name = parts.at(-1);
    if (!SOURCE_FILE.test(name) && !isKebabName(name)) {
      problems.push({ file, rule: "kebab-case", message: `file name "${name}" is not kebab-case (lower-case words joined by "-")` });
    }
  }
  return problems;
}

const IMPORT_PATTERNS = [
  /\b(?:import|export)\b[^;"']*?\bfrom\s*["']([^"']+)["']/g, // import … from, export … from (from its first line)
  /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g, // import("…"), typeof import("…")
  /^\s*import\s*["']([^"']+)["']/gm, // import "…" for its side effects
  /\bvi\.(?:mock|doMock|importActual)\(\s*["']([^"']+)["']/g, // vitest module mocks
];

/** The relative imports of a source file: the file each names (from the root) and its line. */
export function relativeImports(file, text) {
  const found = [];
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const specifier = match[1];
      if (!specifier.startsWith(".")) continue;
      const target = posix.normalize(posix.join(posix.dirname(file), specifier));
      const line = text.slice(0, match.index).split("\n").length;
      found.push({ specifier, target, line });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

const FEATURE = /^apps\/web\/src\/features\/([^/]+)\//;

/** Imports from one web feature into another. */
export function checkFeatureImports(files, read) {
  const problems = [];
  for (const file of files) {
    const own = FEATURE.exec(file)?.[1];
    if (!own || !SOURCE_FILE.test(file)) continue;
    for (const { specifier, target, line } of relativeImports(file, read(file))) {
      const other = FEATURE.exec(`${target}/`)?.[1];
      if (other && other !== own) {
        problems.push({
          file: `${file}:${line}`,
          rule: "no-cross-feature-import",
          message: `features/${own} imports features/${other} ("${specifier}"); web features do not import each other: move what both need to src/components or src/lib`,
        });
      }
    }
  }
  return problems;
}

const SERVER = /^apps\/server\/(?:src|test)\//;
const MODULE = /^apps\/server\/src\/modules\/([^/]+)\//;
const REPOSITORY = /^apps\/server\/src\/modules\/([^/]+)\/[^/]+\.repository(?:\.[cm]?[jt]s)?$/;

/** Server code (tests included) importing a repository of a module other than its own. */
export function checkRepositoryImports(files, read) {
  const problems = [];
  for (const file of files) {
    if (!SERVER.test(file) || !SOURCE_FILE.test(file)) continue;
    const own = MODULE.exec(file)?.[1];
    for (const { specifier, target, line } of relativeImports(file, read(file))) {
      const owner = REPOSITORY.exec(target)?.[1];
      if (owner && owner !== own) {
        problems.push({
          file: `${file}:${line}`,
          rule: "no-foreign-repository",
          message: `${own ? `module ${own}` : "code outside modules/"} imports the ${owner} repository ("${specifier}"); only module ${owner} reads its tables: call its service`,
        });
      }
    }
  }
  return problems;
}

const SERVER_SOURCE = /^apps\/server\/src\/(.+)$/;
const TEST_FILE = /\.test\.[cm]?[jt]sx?$/;

/**
 * The unit of a server source file: "modules/<name>", or the first entry below
 * apps/server/src ("lib", "db", "context", "config"…); undefined outside it.
 */
export function serverUnit(path) {
  const rest = SERVER_SOURCE.exec(path)?.[1];
  if (!rest) return undefined;
  const parts = rest.split("/");
  if (parts[0] === "modules") return parts.length > 2 ? `modules/${parts[1]}` : "modules";
  return parts[0].replace(/\.[cm]?[jt]sx?$/, "");
}

/** The server's non-test source files, with the relative imports that cross from one unit to another. */
function unitImports(files, read) {
  const edges = new Map(); // "a" -> Map("b" -> [{ file, line, specifier }])
  for (const file of files) {
    const from = serverUnit(file);
    if (!from || !SOURCE_FILE.test(file) || TEST_FILE.test(file)) continue;
    for (const { specifier, target, line } of relativeImports(file, read(file))) {
      const to = serverUnit(target);
      if (!to || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      const targets = edges.get(from);
      if (!targets.has(to)) targets.set(to, []);
      targets.get(to).push({ file, line, specifier });
    }
  }
  return edges;
}

/** Groups of units that reach each other (Tarjan's strongly connected components), each sorted. */
function loopGroups(edges) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let next = 0;
  const visit = (unit) => {
    index.set(unit, next);
    low.set(unit, next++);
    stack.push(unit);
    onStack.add(unit);
    for (const to of [...(edges.get(unit)?.keys() ?? [])].sort()) {
      if (!index.has(to)) {
        visit(to);
        low.set(unit, Math.min(low.get(unit), low.get(to)));
      } else if (onStack.has(to)) {
        low.set(unit, Math.min(low.get(unit), index.get(to)));
      }
    }
    if (low.get(unit) !== index.get(unit)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== unit);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const unit of [...edges.keys()].sort()) if (!index.has(unit)) visit(unit);
  return groups.sort((a, b) => a[0].localeCompare(b[0]));
}

/** A shortest loop from `start` back to it inside `group`: the units in order, start first. */
function shortestLoop(edges, group, start) {
  const inGroup = new Set(group);
  const cameFrom = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const unit = queue.shift();
    for (const to of [...(edges.get(unit)?.keys() ?? [])].sort()) {
      if (!inGroup.has(to) || cameFrom.has(to)) continue;
      cameFrom.set(to, unit);
      if (to === start) {
        const path = [];
        for (let at = cameFrom.get(start); at !== start; at = cameFrom.get(at)) path.unshift(at);
        return [start, ...path];
      }
      queue.push(to);
    }
  }
  return [start];
}

/**
 * Server units that import each other, directly or through others: one problem per group of
 * such units, naming one loop through it with the file and line of each step.
 */
export function checkModuleCycles(files, read) {
  const edges = unitImports(files, read);
  const problems = [];
  for (const group of loopGroups(edges)) {
    const loop = shortestLoop(edges, group, group[0]);
    const steps = loop.map((unit, i) => {
      const to = loop[(i + 1) % loop.length];
      const first = edges.get(unit).get(to)[0];
      return { unit, to, at: `${first.file}:${first.line}` };
    });
    problems.push({
      file: steps[0].at,
      rule: "no-module-cycle",
      message:
        `${group.join(", ")} import each other; one loop: ` +
        steps.map((s) => `${s.unit} → ${s.to} (${s.at})`).join(", ") +
        ". Dependencies run one way: move what both need down into the lower one (or lib, db, the contract)",
    });
  }
  return problems;
}

const LIB_OR_DB = /^apps\/server\/src\/(lib|db)\//;

/** lib/ and db/ importing a module or context.ts (tests left out). */
export function checkFloorImports(files, read) {
  const problems = [];
  for (const file of files) {
    const floor = LIB_OR_DB.exec(file)?.[1];
    if (!floor || !SOURCE_FILE.test(file) || TEST_FILE.test(file)) continue;
    for (const { specifier, target, line } of relativeImports(file, read(file))) {
      const unit = serverUnit(target);
      if (unit?.startsWith("modules") || unit === "context") {
        problems.push({
          file: `${file}:${line}`,
          rule: "no-module-in-lib-db",
          message: `${floor}/ imports ${unit === "context" ? "context.ts" : unit} ("${specifier}"); ${floor}/ sits below the modules and the server context: take what is needed as a parameter, or move the code into the module`,
        });
      }
    }
  }
  return problems;
}

const SERVER_TEST_CODE = /^apps\/server\/(src|test)\//;
const DATABASE_ENTRY = new Set(["apps/server/test/test-app.ts", "apps/server/src/db/connection.ts"]);
const DB_TEST_FILE = /\.db\.test\.ts$/;

/** The server's files that open a database, directly or through what they import. */
function databaseOpeners(files, read) {
  const known = new Set(files);
  const imports = new Map();
  for (const file of files) {
    if (!SERVER_TEST_CODE.test(file) || !SOURCE_FILE.test(file)) continue;
    const lines = read(file).split("\n");
    // A type import opens nothing.
    const targets = relativeImports(file, lines.join("\n"))
      .filter(({ line }) => !/^\s*(?:import|export) type\b/.test(lines[line - 1] ?? ""))
      .map(({ target }) => target.replace(/\.js$/, ".ts"))
      .filter((target) => known.has(target));
    imports.set(file, targets);
  }
  const openers = new Set(DATABASE_ENTRY);
  // A test that starts a server of its own on the run's database names it with testDatabaseUrl().
  for (const file of imports.keys()) if (TEST_FILE.test(file) && /\btestDatabaseUrl\(/.test(read(file))) openers.add(file);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [file, targets] of imports) {
      // Through tests and the test helpers only: application code reaches the database anyway.
      if (openers.has(file) || !(TEST_FILE.test(file) || file.startsWith("apps/server/test/"))) continue;
      if (targets.some((target) => openers.has(target))) {
        openers.add(file);
        grew = true;
      }
    }
  }
  return openers;
}

/** Server tests named *.db.test.ts exactly when they open a database. */
export function checkDatabaseTestNames(files, read) {
  const openers = databaseOpeners(files, read);
  const problems = [];
  for (const file of files) {
    if (!SERVER_TEST_CODE.test(file) || !TEST_FILE.test(file)) continue;
    const named = DB_TEST_FILE.test(file);
    const opens = openers.has(file);
    if (opens && !named) {
      problems.push({ file, rule: "db-test-name", message: "this test opens a database (through test/test-app.ts or db/connection.ts): name it *.db.test.ts so that `npm run test:db` runs it on PostgreSQL" });
    } else if (named && !opens) {
      problems.push({ file, rule: "db-test-name", message: "this test opens no database: name it *.test.ts (only database tests run a second time on PostgreSQL)" });
    }
  }
  return problems;
}

/** No module mocks in server tests: they share one module graph per worker. */
export function checkServerModuleMocks(files, read) {
  const problems = [];
  for (const file of files) {
    if (!(SERVER_TEST_CODE.test(file) && TEST_FILE.test(file)) && !file.startsWith("apps/server/test/")) continue;
    read(file)
      .split("\n")
      .forEach((line, i) => {
        if (/\bvi\.(?:mock|doMock)\(/.test(line)) {
          problems.push({ file: `${file}:${i + 1}`, rule: "no-module-mock", message: "server suites share one module graph per worker (isolate: false): spy on the export with vi.spyOn instead of mocking the module" });
        }
      });
  }
  return problems;
}

/** Every guard over the tree at `root`. */
export function lintStructure(root) {
  const files = listFiles(root);
  const read = (file) => readFileSync(join(root, file), "utf8");
  return [
    ...checkNames(files),
    ...checkFeatureImports(files, read),
    ...checkRepositoryImports(files, read),
    ...checkModuleCycles(files, read),
    ...checkFloorImports(files, read),
    ...checkDatabaseTestNames(files, read),
    ...checkServerModuleMocks(files, read),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const root = process.argv[2] ? resolve(process.argv[2]) : dirname(dirname(fileURLToPath(import.meta.url)));
  const problems = lintStructure(root);
  for (const p of problems) console.error(`${p.file}  ${p.rule}  ${p.message}`);
  if (problems.length > 0) {
    console.error(`\nlint-structure: ${problems.length} problem(s) in ${relative(process.cwd(), root) || "."}`);
    process.exit(1);
  }
  console.log("lint-structure: names and imports ok");
}
