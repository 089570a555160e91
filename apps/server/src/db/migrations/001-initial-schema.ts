import { type Kysely, sql } from "kysely";

// One statement per entry: PGlite runs parameterised statements one at a time.
const up: string[] = [
  `create table schools (
    id serial primary key,
    name text not null,
    district text not null default '',
    created_at timestamptz not null default now()
  )`,
  `create unique index schools_name_key on schools (lower(name))`,

  `create table cohorts (
    id serial primary key,
    name text not null,
    program_type text not null check (program_type in
      ('Internship (4 week)', 'Internship (6 week)', 'Internship (8 week)', 'Projects')),
    start_date date not null,
    end_date date not null,
    total_expected_hours double precision,
    created_at timestamptz not null default now(),
    check (end_date >= start_date)
  )`,

  `create table teams (
    id serial primary key,
    name text not null,
    school_id integer not null references schools(id),
    cohort_id integer not null references cohorts(id),
    organization_description text,
    project_description text,
    start_date date,
    created_at timestamptz not null default now()
  )`,
  `create index teams_school_cohort_idx on teams (school_id, cohort_id)`,
  `create index teams_cohort_idx on teams (cohort_id)`,

  `create table students (
    id serial primary key,
    first_name text not null,
    last_name text not null,
    email text,
    school_id integer references schools(id),
    benefit_assignment_id text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index students_email_key on students (lower(email)) where email is not null`,
  `create unique index students_benefit_key on students (benefit_assignment_id) where benefit_assignment_id is not null`,
  `create index students_school_idx on students (school_id, last_name, first_name, id)`,
  `create index students_name_idx on students (last_name, first_name, id)`,

  `create table student_cohorts (
    student_id integer not null references students(id) on delete cascade,
    cohort_id integer not null references cohorts(id),
    joined_at timestamptz not null default now(),
    primary key (student_id, cohort_id)
  )`,
  `create index student_cohorts_cohort_idx on student_cohorts (cohort_id, student_id)`,

  `create table student_teams (
    student_id integer not null references students(id) on delete cascade,
    team_id integer not null references teams(id),
    joined_at timestamptz not null default now(),
    primary key (student_id, team_id)
  )`,
  `create index student_teams_team_idx on student_teams (team_id, student_id)`,

  `create table attendance_records (
    id serial primary key,
    student_id integer not null references students(id) on delete cascade,
    cohort_id integer not null references cohorts(id),
    school_id integer not null references schools(id),
    team_id integer not null default 0,
    week_number integer not null check (week_number between 1 and 104),
    date date not null,
    meeting_type text not null check (meeting_type in ('mentor', 'advisor')),
    status text not null check (status in ('present', 'late', 'absent')),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (student_id, date, meeting_type)
  )`,
  `create index attendance_student_cohort_idx on attendance_records (student_id, cohort_id, date)`,

  // Trend queries read this instead of scanning attendance_records.
  `create table attendance_summary (
    school_id integer not null,
    cohort_id integer not null,
    team_id integer not null,
    week_number integer not null,
    meeting_type text not null,
    present integer not null default 0,
    late integer not null default 0,
    absent integer not null default 0,
    primary key (school_id, cohort_id, team_id, week_number, meeting_type)
  )`,
  `create index attendance_summary_cohort_idx on attendance_summary (cohort_id, week_number)`,

  // Statement-level triggers with transition tables: one aggregate per statement, so a bulk
  // import of a million rows costs one grouped upsert rather than a million.
  `create function attendance_summary_add() returns trigger language plpgsql as $$
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
     return null;
   end $$`,
  `create function attendance_summary_subtract() returns trigger language plpgsql as $$
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
     return null;
   end $$`,
  `create trigger attendance_summary_on_insert after insert on attendance_records
     referencing new table as new_rows for each statement execute function attendance_summary_add()`,
  `create trigger attendance_summary_on_delete after delete on attendance_records
     referencing old table as old_rows for each statement execute function attendance_summary_subtract()`,
  `create trigger attendance_summary_on_update_old after update on attendance_records
     referencing old table as old_rows for each statement execute function attendance_summary_subtract()`,
  `create trigger attendance_summary_on_update_new after update on attendance_records
     referencing new table as new_rows for each statement execute function attendance_summary_add()`,

  `create table weekly_data (
    id serial primary key,
    student_id integer not null references students(id) on delete cascade,
    cohort_id integer not null references cohorts(id),
    week_number integer not null check (week_number between 1 and 104),
    week_start date,
    flags jsonb not null default '[]',
    reflection text,
    advisor_notes text,
    hours_reported double precision,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (student_id, cohort_id, week_number)
  )`,

  `create table users (
    id serial primary key,
    username text not null,
    email text not null,
    password_hash text not null,
    role text not null check (role in ('super_admin', 'admin', 'district_user', 'school_user')),
    school_id integer references schools(id),
    is_active boolean not null default true,
    session_version integer not null default 1,
    email_verified boolean not null default false,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    last_login timestamptz
  )`,
  `create unique index users_username_key on users (lower(username))`,
  `create unique index users_email_key on users (lower(email))`,

  `create table user_schools (
    user_id integer not null references users(id) on delete cascade,
    school_id integer not null references schools(id),
    primary key (user_id, school_id)
  )`,

  `create table login_logs (
    id serial primary key,
    user_id integer references users(id) on delete set null,
    login text not null,
    login_method text not null,
    ip_address text not null,
    user_agent text,
    successful boolean not null,
    failure_reason text,
    created_at timestamptz not null default now()
  )`,
  `create index login_logs_user_idx on login_logs (user_id, created_at desc)`,
  `create index login_logs_login_failures_idx on login_logs (login, created_at) where not successful`,
  `create index login_logs_ip_failures_idx on login_logs (ip_address, created_at) where not successful`,

  `create table refresh_tokens (
    id serial primary key,
    user_id integer not null references users(id) on delete cascade,
    token_hash text not null unique,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    revoked_at timestamptz,
    replaced_by_id integer
  )`,
  `create index refresh_tokens_user_idx on refresh_tokens (user_id)`,

  `create table one_time_tokens (
    id serial primary key,
    user_id integer not null references users(id) on delete cascade,
    purpose text not null check (purpose in ('password_reset', 'email_verify')),
    token_hash text not null unique,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    used_at timestamptz
  )`,

  `create table settings (
    key text primary key,
    value jsonb not null,
    updated_at timestamptz not null default now(),
    updated_by integer references users(id) on delete set null
  )`,

  `create table cohort_visibility (
    id serial primary key,
    cohort_id integer not null references cohorts(id) on delete cascade,
    school_id integer references schools(id) on delete cascade,
    is_visible boolean not null,
    updated_at timestamptz not null default now()
  )`,
  `create unique index cohort_visibility_key on cohort_visibility (cohort_id, coalesce(school_id, 0))`,

  `create table mail_outbox (
    id serial primary key,
    to_address text not null,
    subject text not null,
    text_body text not null,
    html_body text,
    created_at timestamptz not null default now(),
    sent_at timestamptz,
    error text
  )`,
];

export async function migrate001(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
