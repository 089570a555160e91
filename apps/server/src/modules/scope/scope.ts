import { type DemoSettings, demoOpenTo, isAdminRole, type Role } from "@tally/contract";
import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import { listCohortVisibility, readDemoSettings, type VisibilityRow } from "./scope-settings.service.js";

/** What scope resolution needs of the signed-in user (request.user). */
export interface ScopeSubject {
  role: Role;
  /** Loaded from the database per request: 'all' for admins. */
  accessibleSchoolIds: readonly number[] | "all";
  /** The visibility settings when already read with the account (request.user); else read here. */
  cohortVisibility?: readonly VisibilityRow[] | undefined;
  /** The demo setting (school, cohort, toggles) when already read with the account (request.user); else read here. */
  demo?: DemoSettings | undefined;
}

/**
 * Which rows a caller may see. Built once per request by resolveScope and handed to every
 * repository that returns student data; repositories apply it only through the helpers below.
 */
export interface DataScope {
  /** 'all' = every school except excludedSchoolIds (and students without a school). */
  readonly schools: "all" | readonly number[];
  readonly excludedSchoolIds: readonly number[];
  /** Cohorts never shown, whatever the visibility settings say (the demo cohort for admins, or for all when the demo is off). */
  readonly excludedCohortIds: readonly number[];
  /** null = cohort visibility is not applied (admins) or nothing is hidden. */
  readonly visibility: VisibilityRule | null;
}

/**
 * Cohort visibility as lists: a cohort is visible at a school when that school's row says so,
 * else when the all-schools row says so, else it is visible.
 */
export interface VisibilityRule {
  /** Cohorts whose all-schools row hides them. */
  readonly hiddenEverywhere: readonly number[];
  /** [school_id, cohort_id] rows that show a cohort at one school. */
  readonly shownAt: ReadonlyArray<readonly [number, number]>;
  /** [school_id, cohort_id] rows that hide a cohort at one school. */
  readonly hiddenAt: ReadonlyArray<readonly [number, number]>;
}

export interface ScopeRequest {
  /** Filters asked for (school_id, schoolIds): intersected with what the user may see. */
  schoolIds?: readonly number[] | undefined;
  /** Only admins choose; school and district users always see visible cohorts only. */
  respectVisibility?: boolean | undefined;
}

/**
 * The caller's scope, loaded per request: requested school ids can narrow it, never widen it,
 * with one exception: a request naming the demo school alone opens it to the roles the demo
 * toggles let in (admins: adminAccess; school and district users: schoolAccess).
 * The demo school and cohort are hidden from admins' lists and counts, and from everyone's
 * while the demo is switched off.
 */
export async function resolveScope(db: DbExecutor, user: ScopeSubject, request: ScopeRequest = {}): Promise<DataScope> {
  const admin = isAdminRole(user.role);
  const demo = user.demo ?? (await readDemoSettings(db));
  const respectVisibility = !admin || request.respectVisibility === true;
  const visibility = respectVisibility
    ? buildVisibilityRule(user.cohortVisibility ?? (await listCohortVisibility(db)))
    : null;
  const hideDemo = admin || !demo.isDemoVisible;
  const excludedSchoolIds = hideDemo ? [demo.schoolId] : [];
  const allowed = user.accessibleSchoolIds === "all" ? (admin ? "all" : []) : user.accessibleSchoolIds.filter((s) => !excludedSchoolIds.includes(s));
  const namesDemoAlone = request.schoolIds?.length === 1 && request.schoolIds[0] === demo.schoolId;
  const alreadyAllowed = allowed !== "all" && allowed.includes(demo.schoolId);
  if (namesDemoAlone && !alreadyAllowed && demoOpenTo(user.role, demo)) {
    // The demo dashboard: that school only, its cohort included (it is the demo's own cohort).
    return { schools: [demo.schoolId], excludedSchoolIds: [], excludedCohortIds: [], visibility };
  }
  let schools: "all" | number[];
  if (allowed === "all") {
    schools = request.schoolIds ? request.schoolIds.filter((s) => !excludedSchoolIds.includes(s)) : "all";
  } else {
    schools = request.schoolIds ? allowed.filter((s) => request.schoolIds?.includes(s)) : [...allowed];
  }
  return {
    schools,
    excludedSchoolIds,
    excludedCohortIds: hideDemo ? [demo.cohortId] : [],
    visibility,
  };
}

/**
 * Scope for reading one student (detail, attendance, weekly data): the caller's, plus the demo
 * school and cohort when the demo dashboard is open to them, so a student card opened there
 * shows its detail. Never for writes: edits check the caller's own scope.
 */
export async function resolveStudentReadScope(db: DbExecutor, user: ScopeSubject): Promise<DataScope> {
  const scope = await resolveScope(db, user);
  const demo = user.demo ?? (await readDemoSettings(db));
  if (!demoOpenTo(user.role, demo)) return scope;
  return {
    ...scope,
    schools: scope.schools === "all" ? "all" : [...new Set([...scope.schools, demo.schoolId])],
    excludedSchoolIds: scope.excludedSchoolIds.filter((id) => id !== demo.schoolId),
    excludedCohortIds: scope.excludedCohortIds.filter((id) => id !== demo.cohortId),
  };
}

/**
 * The settings as lists, kept whole so the rule is exact at any school (a student's old
 * attendance may sit at a school outside the scope); null when nothing is hidden.
 */
export function buildVisibilityRule(rows: readonly VisibilityRow[]): VisibilityRule | null {
  const hiddenEverywhere: number[] = [];
  const shownAt: Array<[number, number]> = [];
  const hiddenAt: Array<[number, number]> = [];
  for (const row of rows) {
    if (row.school_id === null) {
      if (!row.is_visible) hiddenEverywhere.push(row.cohort_id);
    } else {
      (row.is_visible ? shownAt : hiddenAt).push([row.school_id, row.cohort_id]);
    }
  }
  // A school row showing a cohort that no all-schools row hides changes nothing.
  const relevantShown = shownAt.filter(([, cohortId]) => hiddenEverywhere.includes(cohortId));
  if (hiddenEverywhere.length === 0 && hiddenAt.length === 0) return null;
  return { hiddenEverywhere, shownAt: relevantShown, hiddenAt };
}

/** Whether a cohort is visible at a school, in JavaScript (same rule as cohortVisible). */
export function isCohortVisible(scope: DataScope, cohortId: number, schoolId: number | null): boolean {
  if (scope.excludedCohortIds.includes(cohortId)) return false;
  const rule = scope.visibility;
  if (!rule) return true;
  const at = (pairs: ReadonlyArray<readonly [number, number]>) => pairs.some(([s, c]) => s === schoolId && c === cohortId);
  if (at(rule.hiddenAt)) return false;
  if (at(rule.shownAt)) return true;
  return !rule.hiddenEverywhere.includes(cohortId);
}

/** Whether a school id is in scope, in JavaScript (same rule as schoolInScope). */
export function isSchoolInScope(scope: DataScope, schoolId: number | null): boolean {
  if (schoolId === null) return scope.schools === "all";
  if (scope.schools === "all") return !scope.excludedSchoolIds.includes(schoolId);
  return scope.schools.includes(schoolId);
}

const TRUE = sql<SqlBool>`true`;
const FALSE = sql<SqlBool>`false`;

function idList(ids: readonly number[]): RawBuilder<unknown> {
  return sql.join(ids.map((i) => sql.lit(Math.trunc(i))));
}

function pairList(pairs: ReadonlyArray<readonly [number, number]>): RawBuilder<unknown> {
  return sql.join(pairs.map(([a, b]) => sql`(${sql.lit(Math.trunc(a))}, ${sql.lit(Math.trunc(b))})`));
}

/**
 * SQL: the school column is in scope. `nullable` columns (students.school_id) let admins see
 * rows without a school; a list scope never matches null.
 */
export function schoolInScope(scope: DataScope, column: string, { nullable = false } = {}): RawBuilder<SqlBool> {
  const ref = sql.ref(column);
  if (scope.schools === "all") {
    if (scope.excludedSchoolIds.length === 0) return TRUE;
    const notExcluded = sql<SqlBool>`${ref} not in (${idList(scope.excludedSchoolIds)})`;
    return nullable ? sql<SqlBool>`(${ref} is null or ${notExcluded})` : notExcluded;
  }
  if (scope.schools.length === 0) return FALSE;
  if (scope.schools.length === 1) return sql<SqlBool>`${ref} = ${sql.lit(scope.schools[0])}`;
  return sql<SqlBool>`${ref} in (${idList(scope.schools)})`;
}

/** SQL: the cohort column names a cohort visible at the school column's school. */
export function cohortVisible(scope: DataScope, cohortColumn: string, schoolColumn: string): RawBuilder<SqlBool> {
  const cohort = sql.ref(cohortColumn);
  const school = sql.ref(schoolColumn);
  const parts: RawBuilder<SqlBool>[] = [];
  if (scope.excludedCohortIds.length > 0) parts.push(sql<SqlBool>`${cohort} not in (${idList(scope.excludedCohortIds)})`);
  const rule = scope.visibility;
  if (rule) {
    if (rule.hiddenAt.length > 0) {
      // A null school matches no school row, but `not in` with a null operand yields null.
      parts.push(sql<SqlBool>`(${school} is null or (${school}, ${cohort}) not in (${pairList(rule.hiddenAt)}))`);
    }
    if (rule.hiddenEverywhere.length > 0) {
      const hidden = sql<SqlBool>`${cohort} in (${idList(rule.hiddenEverywhere)})`;
      const shown =
        rule.shownAt.length > 0 ? sql<SqlBool>`(${school}, ${cohort}) in (${pairList(rule.shownAt)})` : FALSE;
      parts.push(sql<SqlBool>`(not (${hidden}) or coalesce(${shown}, false))`);
    }
  }
  if (parts.length === 0) return TRUE;
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

/** Cohorts that some setting may hide: only their members can lose visibility. */
function cohortsThatMayHide(scope: DataScope): number[] {
  const ids = new Set<number>(scope.excludedCohortIds);
  for (const c of scope.visibility?.hiddenEverywhere ?? []) ids.add(c);
  for (const [, c] of scope.visibility?.hiddenAt ?? []) ids.add(c);
  return [...ids];
}

/**
 * SQL: a student (alias.id, alias.school_id) is shown: in a school in scope, and not a
 * student whose cohorts are all hidden (students without any cohort stay shown).
 * Written as "not among the all-hidden students", a set the database builds once per query
 * from the members of possibly hidden cohorts, so a 50,000-student count stays cheap.
 * `single`: for a lookup by id (student detail), checks that student's memberships only.
 */
export function studentInScope(scope: DataScope, alias: string, { single = false } = {}): RawBuilder<SqlBool> {
  const inSchool = schoolInScope(scope, `${alias}.school_id`, { nullable: true });
  const candidates = cohortsThatMayHide(scope);
  if (candidates.length === 0) return inSchool;
  if (single) {
    // One known student: looking at its own memberships beats building the whole set.
    return sql<SqlBool>`(${inSchool} and coalesce((select bool_or(${cohortVisible(scope, "one_sc.cohort_id", `${alias}.school_id`)})
      from student_cohorts one_sc where one_sc.student_id = ${sql.ref(`${alias}.id`)}), true))`;
  }
  return sql<SqlBool>`(${inSchool} and ${sql.ref(`${alias}.id`)} not in (${hiddenStudentIds(scope, candidates)}))`;
}

/**
 * SQL: ids of the students in a school in scope whose cohorts are all hidden (the students
 * studentInScope leaves out); null when no setting can hide anyone.
 */
export function hiddenStudentsInScope(scope: DataScope): RawBuilder<unknown> | null {
  const candidates = cohortsThatMayHide(scope);
  return candidates.length === 0 ? null : hiddenStudentIds(scope, candidates);
}

function hiddenStudentIds(scope: DataScope, candidates: readonly number[]): RawBuilder<unknown> {
  return sql`select hid_sc.student_id from student_cohorts hid_sc
      join students hid_s on hid_s.id = hid_sc.student_id
     where hid_sc.cohort_id in (${idList(candidates)})
       and ${schoolInScope(scope, "hid_s.school_id", { nullable: true })}
       and not exists (select 1 from student_cohorts vis_sc
             where vis_sc.student_id = hid_sc.student_id and ${cohortVisible(scope, "vis_sc.cohort_id", "hid_s.school_id")})`;
}

/** SQL: a team (alias.school_id, alias.cohort_id) is shown. */
export function teamInScope(scope: DataScope, alias: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${schoolInScope(scope, `${alias}.school_id`)} and ${cohortVisible(scope, `${alias}.cohort_id`, `${alias}.school_id`)})`;
}
