import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import { normaliseName } from "../report-formats/student-names.js";
import { cohortVisible, type DataScope, studentInScope, teamInScope } from "../scope/scope.js";

// Which students a dashboard's filters select: the list and the summary both start here.

export interface StudentFilters {
  cohortId?: number | undefined;
  /** Students whose current (newest, in scope) team is this one. */
  teamId?: number | undefined;
  q?: string | undefined;
  /**
   * Count only what existed before this moment (students created, cohort and team memberships
   * joined): the dashboard as it stood then, for the week-over-week change of its totals.
   */
  before?: Date | undefined;
}

export function hasFilters(filters: StudentFilters): boolean {
  return filters.cohortId !== undefined || filters.teamId !== undefined || Boolean(filters.q) || filters.before !== undefined;
}

/** SQL: `and <column> < before`, or nothing without a cutoff. */
export function joinedBefore(column: string, before: Date | undefined) {
  return before === undefined ? sql`` : sql`and ${sql.ref(column)} < ${before.toISOString()}`;
}

/** The pattern characters of like, taken literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * SQL: ids of the students the search text finds. A name is read as the import reads it
 * (normaliseName: accents, case, spaces, "Last, First"), and found when its key starts with
 * the text either way round ("jose", "garcia jose", "silva, dmitri"): each side is a range
 * scan of an index of migration 018 (tally_name_key, the SQL twin of normaliseName). Schools,
 * cohorts and teams are few and found by any part of their name; each arm of the union is an
 * index lookup, so no search reads every student.
 */
export function searchMatches(scope: DataScope, q: string, before?: Date) {
  const prefix = `${likeLiteral(normaliseName(q))}%`;
  const contains = `%${likeLiteral(q.trim())}%`;
  return sql`select q_n.id from students q_n where q_n.name_key like ${prefix}
    union select q_r.id from students q_r where q_r.name_key_reversed like ${prefix}
    union select q_s.id from students q_s where q_s.school_id in (select q_sch.id from schools q_sch where q_sch.name ilike ${contains})
    union select q_sc.student_id from student_cohorts q_sc
            join cohorts q_c on q_c.id = q_sc.cohort_id
            join students q_s2 on q_s2.id = q_sc.student_id
           where q_c.name ilike ${contains} and ${cohortVisible(scope, "q_sc.cohort_id", "q_s2.school_id")}
             ${joinedBefore("q_sc.joined_at", before)}
    union select q_st.student_id from student_teams q_st join teams q_t on q_t.id = q_st.team_id
           where q_t.name ilike ${contains} and ${teamInScope(scope, "q_t")} ${joinedBefore("q_st.joined_at", before)}`;
}

/** SQL: the id of the student's current team: the newest membership among teams in scope. */
function currentTeamId(scope: DataScope, studentColumn: string, before: Date | undefined) {
  return sql<number | null>`(select cur_st.team_id from student_teams cur_st join teams cur_t on cur_t.id = cur_st.team_id
     where cur_st.student_id = ${sql.ref(studentColumn)} and ${teamInScope(scope, "cur_t")} ${joinedBefore("cur_st.joined_at", before)}
     order by cur_st.joined_at desc, cur_st.team_id desc limit 1)`;
}

/** Students visible in the scope and matching the filters, as `s`. */
export function filteredStudents(db: DbExecutor, scope: DataScope, filters: StudentFilters) {
  const before = filters.before;
  let query = db.selectFrom("students as s").where(studentInScope(scope, "s"));
  if (before !== undefined) query = query.where("s.created_at", "<", before);
  if (filters.cohortId !== undefined) {
    const cohortId = filters.cohortId;
    query = query.where(
      sql<boolean>`exists (select 1 from student_cohorts f_sc where f_sc.student_id = s.id
        and f_sc.cohort_id = ${cohortId} and ${cohortVisible(scope, "f_sc.cohort_id", "s.school_id")}
        ${joinedBefore("f_sc.joined_at", before)})`,
    );
  }
  if (filters.teamId !== undefined) {
    const teamId = filters.teamId;
    // Members of the team first (index on team_id), then keep those for whom it is current.
    query = query
      .where(sql<boolean>`s.id in (select f_st.student_id from student_teams f_st where f_st.team_id = ${teamId})`)
      .where(sql<boolean>`${currentTeamId(scope, "s.id", before)} = ${teamId}`);
  }
  if (filters.q) {
    query = query.where(sql<boolean>`s.id in (${searchMatches(scope, filters.q, before)})`);
  }
  return query;
}
