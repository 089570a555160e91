import { type Kysely, sql } from "kysely";

// Rollups that keep the dashboard's big answers small at 50,000 students, each maintained by
// triggers so that every write path (API edits, imports, seeds, cascades) keeps them exact.
const up: string[] = [
  // The trend without a team filter: one row per school, cohort, week and meeting type
  // (a few thousand) instead of one per team (tens of thousands).
  `create table attendance_school_summary (
    school_id integer not null,
    cohort_id integer not null,
    week_number integer not null,
    meeting_type text not null,
    present integer not null default 0,
    late integer not null default 0,
    absent integer not null default 0,
    primary key (school_id, cohort_id, week_number, meeting_type)
  )`,
  `create index attendance_school_summary_cohort_idx on attendance_school_summary (cohort_id, week_number)`,
  `insert into attendance_school_summary (school_id, cohort_id, week_number, meeting_type, present, late, absent)
   select school_id, cohort_id, week_number, meeting_type, sum(present), sum(late), sum(absent)
     from attendance_summary group by school_id, cohort_id, week_number, meeting_type`,
  `create or replace function attendance_summary_add() returns trigger language plpgsql as $$
   begin
     insert into attendance_summary as s (school_id, cohort_id, team_id, week_number, meeting_type, present, late, absent)
     select school_id, cohort_id, team_id, week_number, meeting_type,
            count(*) filter (where status = 'present'),
            count(*) filter (where status = 'late'),
            count(*) filter (where status = 'absent')
       from new_rows
      group by school_id, cohort_id, team_id, week_number, meeting_type
     on conflict (school_id, cohort_id, team_id, week_number, meeting_type) do update
       set present = s.present + excluded.present,
           late = s.late + excluded.late,
           absent = s.absent + excluded.absent;
     insert into attendance_school_summary as s (school_id, cohort_id, week_number, meeting_type, present, late, absent)
     select school_id, cohort_id, week_number, meeting_type,
            count(*) filter (where status = 'present'),
            count(*) filter (where status = 'late'),
            count(*) filter (where status = 'absent')
       from new_rows
      group by school_id, cohort_id, week_number, meeting_type
     on conflict (school_id, cohort_id, week_number, meeting_type) do update
       set present = s.present + excluded.present,
           late = s.late + excluded.late,
           absent = s.absent + excluded.absent;
     return null;
   end $$`,
  `create or replace function attendance_summary_subtract() returns trigger language plpgsql as $$
   begin
     update attendance_summary s
        set present = s.present - d.present, late = s.late - d.late, absent = s.absent - d.absent
       from (select school_id, cohort_id, team_id, week_number, meeting_type,
                    count(*) filter (where status = 'present') as present,
                    count(*) filter (where status = 'late') as late,
                    count(*) filter (where status = 'absent') as absent
               from old_rows
              group by school_id, cohort_id, team_id, week_number, meeting_type) d
      where s.school_id = d.school_id and s.cohort_id = d.cohort_id and s.team_id = d.team_id
        and s.week_number = d.week_number and s.meeting_type = d.meeting_type;
     delete from attendance_summary where present = 0 and late = 0 and absent = 0;
     update attendance_school_summary s
        set present = s.present - d.present, late = s.late - d.late, absent = s.absent - d.absent
       from (select school_id, cohort_id, week_number, meeting_type,
                    count(*) filter (where status = 'present') as present,
                    count(*) filter (where status = 'late') as late,
                    count(*) filter (where status = 'absent') as absent
               from old_rows
              group by school_id, cohort_id, week_number, meeting_type) d
      where s.school_id = d.school_id and s.cohort_id = d.cohort_id
        and s.week_number = d.week_number and s.meeting_type = d.meeting_type;
     delete from attendance_school_summary where present = 0 and late = 0 and absent = 0;
     return null;
   end $$`,

  // Per student: what the counts depend on. school_key is students.school_id, 0 for none
  // (primary keys cannot hold null). newest_team_id is the newest membership at any school.
  `create table student_rollup (
    student_id integer primary key,
    school_key integer not null,
    newest_team_id integer,
    cohort_ids integer[] not null
  )`,
  // Students per school; per school and cohort; per school and newest team. Rows may reach
  // zero and stay: readers look at students > 0.
  `create table rollup_school_students (school_key integer primary key, students integer not null)`,
  `create table rollup_school_cohorts (
    school_key integer not null, cohort_id integer not null, students integer not null,
    primary key (school_key, cohort_id)
  )`,
  `create table rollup_school_teams (
    school_key integer not null, team_id integer not null, students integer not null,
    primary key (school_key, team_id)
  )`,
  // Recomputes the students' rows from the source tables and moves the counts by the
  // difference, so it is right whatever changed and safe to call twice (cascades do).
  `create function refresh_student_rollup(ids integer[]) returns void language plpgsql as $$
   begin
     -- One statement: every part reads the same snapshot, so "old" is the state before it.
     with ids as (select distinct unnest(ids) as id),
     old as (select r.* from student_rollup r join ids on ids.id = r.student_id),
     fresh as (
       select s.id as student_id, coalesce(s.school_id, 0) as school_key,
              (select st.team_id from student_teams st where st.student_id = s.id
                order by st.joined_at desc, st.team_id desc limit 1) as newest_team_id,
              coalesce((select array_agg(sc.cohort_id order by sc.cohort_id)
                          from student_cohorts sc where sc.student_id = s.id), '{}') as cohort_ids
         from students s join ids on ids.id = s.id
     ),
     by_school as (
       insert into rollup_school_students as c (school_key, students)
       select school_key, sum(d) from (
         select school_key, -1 as d from old union all select school_key, 1 from fresh) x
        group by school_key having sum(d) <> 0
       on conflict (school_key) do update set students = c.students + excluded.students
     ),
     by_cohort as (
       insert into rollup_school_cohorts as c (school_key, cohort_id, students)
       select school_key, cohort_id, sum(d) from (
         select school_key, unnest(cohort_ids) as cohort_id, -1 as d from old
         union all select school_key, unnest(cohort_ids), 1 from fresh) x
        group by school_key, cohort_id having sum(d) <> 0
       on conflict (school_key, cohort_id) do update set students = c.students + excluded.students
     ),
     by_team as (
       insert into rollup_school_teams as c (school_key, team_id, students)
       select school_key, newest_team_id, sum(d) from (
         select school_key, newest_team_id, -1 as d from old where newest_team_id is not null
         union all select school_key, newest_team_id, 1 from fresh where newest_team_id is not null) x
        group by school_key, newest_team_id having sum(d) <> 0
       on conflict (school_key, team_id) do update set students = c.students + excluded.students
     ),
     kept as (
       insert into student_rollup as r select * from fresh
       on conflict (student_id) do update
         set school_key = excluded.school_key, newest_team_id = excluded.newest_team_id, cohort_ids = excluded.cohort_ids
     )
     delete from student_rollup r using old
      where r.student_id = old.student_id and not exists (select 1 from fresh f where f.student_id = old.student_id);
   end $$`,
  `create function student_rollup_students_new() returns trigger language plpgsql as $$
   begin perform refresh_student_rollup(array(select id from new_rows)); return null; end $$`,
  `create function student_rollup_students_old() returns trigger language plpgsql as $$
   begin perform refresh_student_rollup(array(select id from old_rows)); return null; end $$`,
  `create function student_rollup_students_moved() returns trigger language plpgsql as $$
   begin
     perform refresh_student_rollup(array(
       select n.id from new_rows n join old_rows o on o.id = n.id where n.school_id is distinct from o.school_id));
     return null;
   end $$`,
  `create function student_rollup_members_new() returns trigger language plpgsql as $$
   begin perform refresh_student_rollup(array(select distinct student_id from new_rows)); return null; end $$`,
  `create function student_rollup_members_old() returns trigger language plpgsql as $$
   begin perform refresh_student_rollup(array(select distinct student_id from old_rows)); return null; end $$`,
  `create function student_rollup_members_changed() returns trigger language plpgsql as $$
   begin
     perform refresh_student_rollup(array(select student_id from new_rows union select student_id from old_rows));
     return null;
   end $$`,
  `create trigger student_rollup_on_insert after insert on students
     referencing new table as new_rows for each statement execute function student_rollup_students_new()`,
  `create trigger student_rollup_on_delete after delete on students
     referencing old table as old_rows for each statement execute function student_rollup_students_old()`,
  `create trigger student_rollup_on_update after update on students
     referencing old table as old_rows new table as new_rows for each statement execute function student_rollup_students_moved()`,
  ...["student_cohorts", "student_teams"].flatMap((table) => [
    `create trigger ${table}_rollup_on_insert after insert on ${table}
       referencing new table as new_rows for each statement execute function student_rollup_members_new()`,
    `create trigger ${table}_rollup_on_delete after delete on ${table}
       referencing old table as old_rows for each statement execute function student_rollup_members_old()`,
    `create trigger ${table}_rollup_on_update after update on ${table}
       referencing old table as old_rows new table as new_rows for each statement execute function student_rollup_members_changed()`,
  ]),
  `select refresh_student_rollup(array(select id from students))`,
];

export async function migrate003(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
