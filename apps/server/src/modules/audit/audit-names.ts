import type { DbExecutor } from "../../db/executor.js";
import { findNames, type AuditRow, type NamedIds } from "./audit.repository.js";

// Issue 29: the audit page names what changed ("oak", "Riverside School") instead of "user #9",
// and the schools and cohorts its before/after values refer to by id.

const SCHOOL_KEYS = new Set(["school_id", "schoolId", "school_ids", "schoolIds"]);
const COHORT_KEYS = new Set(["cohort_id", "cohortId"]);
const ENTITY_TABLE = { user: "users", school: "schools", cohort: "cohorts", student: "students" } as const;

const isId = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0;

/** Walks a stored value (objects, arrays, the filters of an export) for school and cohort ids. */
function collectRefs(value: unknown, ids: NamedIds, depth = 0): void {
  if (depth > 4 || value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const item of value) collectRefs(item, ids, depth + 1);
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    const list = Array.isArray(v) ? v : [v];
    if (SCHOOL_KEYS.has(key)) ids.schools.push(...list.filter(isId));
    else if (COHORT_KEYS.has(key)) ids.cohorts.push(...list.filter(isId));
    else collectRefs(v, ids, depth + 1);
  }
}

const field = (value: unknown, key: string): unknown =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;

/** "Week 4 of Autumn 2026 Internship": an import batch from its own row (the batch may be undone and gone). */
function importName(row: AuditRow, cohorts: Map<number, string>): string | null {
  for (const value of [row.after, row.before]) {
    const week = field(value, "week");
    const cohortId = field(value, "cohortId");
    const cohortName = field(value, "cohortName");
    const cohort = typeof cohortName === "string" ? cohortName : isId(cohortId) ? cohorts.get(cohortId) : undefined;
    if (typeof week === "number" && cohort) return `Week ${week} of ${cohort}`;
  }
  return null;
}

const unique = (list: number[]) => [...new Set(list)];
const toMap = (rows: Array<{ id: number; name: string }>) => new Map(rows.map((r) => [r.id, r.name]));

/** Each row's entity name, and the names of the schools and cohorts the rows' values refer to. */
export async function nameAuditRows(db: DbExecutor, rows: readonly AuditRow[]) {
  const ids: NamedIds = { users: [], schools: [], cohorts: [], students: [] };
  for (const row of rows) {
    const id = Number(row.entity_id);
    const table = ENTITY_TABLE[row.entity as keyof typeof ENTITY_TABLE] as keyof NamedIds | undefined;
    if (table && isId(id)) ids[table].push(id);
    collectRefs(row.before, ids);
    collectRefs(row.after, ids);
  }
  const found = await findNames(db, {
    users: unique(ids.users),
    schools: unique(ids.schools),
    cohorts: unique(ids.cohorts),
    students: unique(ids.students),
  });
  const maps = { users: toMap(found.users), schools: toMap(found.schools), cohorts: toMap(found.cohorts), students: toMap(found.students) };
  const entityName = (row: AuditRow): string | null => {
    if (row.entity === "import_batch") return importName(row, maps.cohorts);
    const table = ENTITY_TABLE[row.entity as keyof typeof ENTITY_TABLE] as keyof NamedIds | undefined;
    return table ? (maps[table].get(Number(row.entity_id)) ?? null) : null;
  };
  return {
    entityName,
    names: {
      schools: Object.fromEntries([...maps.schools].map(([id, name]) => [String(id), name])),
      cohorts: Object.fromEntries([...maps.cohorts].map(([id, name]) => [String(id), name])),
    },
  };
}
