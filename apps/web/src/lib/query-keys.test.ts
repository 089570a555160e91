import { describe, expect, it } from "vitest";
import { queryKeys } from "./query-keys";

/** The app's source (tests and test helpers left out), by path relative to this folder. */
const SOURCES = import.meta.glob(["../**/*.{ts,tsx}", "!../**/*.test.{ts,tsx}", "!../testing/**"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

const startsWith = (key: readonly unknown[], prefix: readonly unknown[]) =>
  JSON.stringify(key.slice(0, prefix.length)) === JSON.stringify(prefix);

describe("query keys", () => {
  it("are written only in lib/query-keys.ts: no query, cache write or invalidation spells out a key", () => {
    const literal = /queryKey:\s*\[|QueryData(?:<[^>]*>)?\(\s*\[|_KEY\s*=\s*\[/;
    expect(Object.keys(SOURCES).length).toBeGreaterThan(100);
    const offenders = Object.entries(SOURCES)
      .filter(([path, text]) => path !== "./query-keys.ts" && literal.test(text))
      .map(([path]) => path);
    expect(offenders).toEqual([]);
  });

  it("start with their group's key, so invalidating the group reaches every query in it", () => {
    const groups: Array<[readonly unknown[], Array<readonly unknown[]>]> = [
      [queryKeys.users.all, [queryKeys.users.schools(3), queryKeys.users.loginLogs(3, {}, 1)]],
      [queryKeys.schools.all, [queryKeys.schools.admin]],
      [queryKeys.cohorts.all, [queryKeys.cohorts.visible(null), queryKeys.cohorts.admin, queryKeys.cohorts.active]],
      [queryKeys.settings.features.all, [queryKeys.settings.features.admin, queryKeys.settings.features.atSchool(2)]],
      [queryKeys.imports.all, [queryKeys.imports.list(20, null)]],
      [queryKeys.students.all, [queryKeys.students.list({}), queryKeys.students.summary({}), queryKeys.students.detail(5)]],
      [queryKeys.teams.all, [queryKeys.teams.list({})]],
      [queryKeys.attendance.trends.all, [queryKeys.attendance.trends.list({})]],
      [queryKeys.weeklyData.all, [queryKeys.weeklyData.student(5, 10)]],
      [queryKeys.audit.all, [queryKeys.audit.page({}, 1)]],
    ];
    for (const [group, keys] of groups) for (const key of keys) expect(startsWith(key, group), JSON.stringify(key)).toBe(true);
    // A student's own queries are outside the trends group: an edit refreshes the trends, not them.
    expect(startsWith(queryKeys.attendance.student(5, 10), queryKeys.attendance.trends.all)).toBe(false);
  });
});
