import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import { cohortVisible, type DataScope, teamInScope } from "../scope/scope.js";

export interface TeamRow {
  id: number;
  name: string;
  school_id: number;
  school_name: string;
  cohort_id: number;
  cohort_name: string;
  organization_description: string | null;
  project_description: string | null;
  start_date: string | null;
}

/**
 * Teams in scope (school in scope, cohort visible at the team's school), by name. An admin's
 * list holds every team (4,000 at 50,000 students), so it comes back as one JSON value: the
 * embedded engine decodes thousands of rows field by field several times slower.
 */
export async function listTeams(db: DbExecutor, scope: DataScope, filters: { cohortId?: number | undefined }): Promise<TeamRow[]> {
  let query = db
    .selectFrom("teams as t")
    .innerJoin("schools as sch", "sch.id", "t.school_id")
    .innerJoin("cohorts as c", "c.id", "t.cohort_id")
    .select([
      "t.id",
      "t.name",
      "t.school_id",
      "sch.name as school_name",
      "t.cohort_id",
      "c.name as cohort_name",
      "t.organization_description",
      "t.project_description",
      "t.start_date",
    ])
    .where(teamInScope(scope, "t"));
  if (filters.cohortId !== undefined) query = query.where("t.cohort_id", "=", filters.cohortId);
  const { rows } = await sql<{ teams: TeamRow[] | null }>`
    select json_agg(x order by x.name, x.id) as teams from (${query}) x`.execute(db);
  return rows[0]?.teams ?? [];
}

/** The team if it belongs to the school and its cohort is visible there in the scope. */
export async function findTeamAtSchool(
  db: DbExecutor,
  scope: DataScope,
  teamId: number,
  schoolId: number,
): Promise<{ id: number; cohort_id: number } | undefined> {
  return db
    .selectFrom("teams as t")
    .select(["t.id", "t.cohort_id"])
    .where("t.id", "=", teamId)
    .where("t.school_id", "=", schoolId)
    .where(cohortVisible(scope, "t.cohort_id", "t.school_id"))
    .executeTakeFirst();
}

/**
 * The number team_list_version holds (migration 031): it moves, inside the writer's
 * transaction, with every write to teams, schools or cohorts, so a list read after it is at
 * least as new as the number says.
 */
export async function teamListVersion(db: DbExecutor): Promise<string> {
  const row = await db.selectFrom("team_list_version").select("version").executeTakeFirst();
  return String(row?.version ?? 0);
}
