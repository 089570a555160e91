import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import { cohortVisible, type DataScope, studentInScope, teamInScope } from "../scope/scope.js";

// Which students a dashboard's filters select: the list and the summary both start here.

export interface StudentFilters {
  cohortId?: number | undefined;
  /** Students whose current (newest, in scope) team is this one. */
  teamId?: number | undefined;
  q?: string | undefined;
}

export function hasFilters(filters: StudentFilters): boolean {
  return filters.cohortId !== undefined || filters.teamId !== undefined || Boolean(filters.q);
}

/** `%text%` for ilike, with the pattern characters taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** SQL: the id of the student's current team: the newest membership among teams in scope. */
function currentTeamId(scope: DataScope, studentColumn: string) {
  return sql<number | null>`(select cur_st.team_id from student_teams cur_st join teams cur_t on cur_t.id = cur_st.team_id
     where cur_st.student_id = ${sql.ref(studentColumn)} and ${teamInScope(scope, "cur_t")}
     order by cur_st.joined_at desc, cur_st.team_id desc limit 1)`;
}

/** Students visible in the scope and matching the filters, as `s`. */
export function filteredStudents(db: DbExecutor, scope: DataScope, filters: StudentFilters) {
  let query = db.selectFrom("students as s").where(studentInScope(scope, "s"));
  if (filters.cohortId !== undefined) {
    const cohortId = filters.cohortId;
    query = query.where(
      sql<boolean>`exists (select 1 from student_cohorts f_sc where f_sc.student_id = s.id
        and f_sc.cohort_id = ${cohortId} and ${cohortVisible(scope, "f_sc.cohort_id", "s.school_id")})`,
    );
  }
  if (filters.teamId !== undefined) {
    const teamId = filters.teamId;
    // Members of the team first (index on team_id), then keep those for whom it is current.
    query = query
      .where(sql<boolean>`s.id in (select f_st.student_id from student_teams f_st where f_st.team_id = ${teamId})`)
      .where(sql<boolean>`${currentTeamId(scope, "s.id")} = ${teamId}`);
  }
  if (filters.q) {
    const pattern = containsPattern(filters.q);
    // Schools, cohorts and teams are few: each match set is built once, not per student.
    query = query.where(
      sql<boolean>`((s.first_name || ' ' || s.last_name) ilike ${pattern}
        or (s.last_name || ' ' || s.first_name) ilike ${pattern}
        or s.school_id in (select q_sch.id from schools q_sch where q_sch.name ilike ${pattern})
        or s.id in (select q_sc.student_id from student_cohorts q_sc
              join cohorts q_c on q_c.id = q_sc.cohort_id
              join students q_s on q_s.id = q_sc.student_id
             where q_c.name ilike ${pattern} and ${cohortVisible(scope, "q_sc.cohort_id", "q_s.school_id")})
        or s.id in (select q_st.student_id from student_teams q_st join teams q_t on q_t.id = q_st.team_id
             where q_t.name ilike ${pattern} and ${teamInScope(scope, "q_t")}))`,
    );
  }
  return query;
}
