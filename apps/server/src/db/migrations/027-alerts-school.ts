import { type Kysely, sql } from "kysely";

// Issue 30, performance: the call list of a school user picked its page among every school's
// alerts and only then kept its own school's (37 ms at p95 on the bench set). An alert now
// carries its student's school (school_id, null for a student without one), kept equal to
// students.school_id by triggers: set on insert when the writer did not give it, and followed
// when a student changes school. The list filters on it before paging, through partial indexes
// on the live episodes (the list's default states) in the list's own order: urgent first,
// then the oldest. Both triggers are "always" (migration 016: the embedded import writes with
// session_replication_role at replica).
const SEVERITY_RANK = `(case severity when 'urgent' then 0 when 'warning' then 1 else 2 end)`;

const up: string[] = [
  `alter table alerts add column school_id integer references schools(id) on delete set null`,
  `update alerts a set school_id = s.school_id from students s where s.id = a.student_id and s.school_id is not null`,
  `create function alerts_school_of_student() returns trigger language plpgsql as $$
   begin
     new.school_id := (select s.school_id from students s where s.id = new.student_id);
     return new;
   end $$`,
  `create trigger alerts_school_on_insert before insert on alerts
     for each row when (new.school_id is null) execute function alerts_school_of_student()`,
  `alter table alerts enable always trigger alerts_school_on_insert`,
  `create function alerts_follow_student_school() returns trigger language plpgsql as $$
   begin
     update alerts set school_id = new.school_id where student_id = new.id and school_id is distinct from new.school_id;
     return null;
   end $$`,
  `create trigger alerts_follow_school after update of school_id on students
     for each row when (old.school_id is distinct from new.school_id) execute function alerts_follow_student_school()`,
  `alter table students enable always trigger alerts_follow_school`,
  `create index alerts_live_order on alerts (${SEVERITY_RANK}, opened_at, id) where condition_ended_at is null`,
  `create index alerts_live_school on alerts (school_id, ${SEVERITY_RANK}, opened_at, id) where condition_ended_at is null`,
  `create index alerts_student on alerts (student_id)`,
];

export async function migrate027(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
