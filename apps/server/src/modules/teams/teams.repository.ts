import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import { type DataScope, teamInScope } from "../scope/scope.js";

type Db = Kysely<Database> | Transaction<Database>;

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

/** Teams in scope (school in scope, cohort visible at the team's school), by name. */
export async function listTeams(db: Db, scope: DataScope, filters: { cohortId?: number | undefined }): Promise<TeamRow[]> {
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
  return query.orderBy("t.name").orderBy("t.id").execute();
}
