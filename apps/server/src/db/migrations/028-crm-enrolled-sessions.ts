import { type Kysely, sql } from "kysely";

// Issue 30, the "missing from reports" rule's second part: CRM sessions still "Enrolled" after
// the week ended. A flag import keeps, for each student it imports, how many of the student's
// CRM sessions of that week were still Enrolled and when the CRM export was read (the run was
// processed). One row per batch and student: an undone batch's rows stop counting (the read
// skips undone batches) and a later import of the same week takes over from an earlier one.
// enrolled 0 is stored too: a later export showing every session recorded clears the earlier.
const up: string[] = [
  `create table crm_enrolled_sessions (
    batch_id integer not null references import_batches(id) on delete cascade,
    student_id integer not null references students(id) on delete cascade,
    cohort_id integer not null references cohorts(id) on delete cascade,
    week_number integer not null,
    enrolled integer not null check (enrolled >= 0),
    reported_at timestamptz not null,
    primary key (batch_id, student_id)
  )`,
  `create index crm_enrolled_sessions_week on crm_enrolled_sessions (cohort_id, week_number, student_id, batch_id desc)`,
  `create index crm_enrolled_sessions_student on crm_enrolled_sessions (student_id)`,
];

export async function migrate028(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
