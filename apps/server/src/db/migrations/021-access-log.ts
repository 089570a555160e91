import { type Kysely, sql } from "kysely";

// Issue 32: the record of access. One row per student per read or export (an export naming
// 300 students is 300 rows sharing one `event`), so a student's record and a user's distinct
// students in a day are plain index reads. Who it was is copied (username, role): the record
// must say who saw the data then, even after the account is renamed or deleted, so user_id has
// no foreign key. Neither has student_id: after an erasure it stays as an anonymous id.
const up: string[] = [
  `create table access_log (
    id bigint generated always as identity primary key,
    event uuid not null,
    at timestamptz not null,
    user_id integer not null,
    username text not null,
    role text not null,
    address text,
    action text not null check (action in ('view', 'pdf', 'csv', 'email', 'export')),
    recipient text,
    student_id integer not null
  )`,
  `create index access_log_student_at on access_log (student_id, at desc, id desc)`,
  `create index access_log_user_at on access_log (user_id, at)`,
  `create index access_log_at on access_log (at desc, id desc)`,
  // The bulk-export alarm: one row per user while it stands (cleared_at null), kept after.
  `create table access_alarms (
    id integer generated always as identity primary key,
    user_id integer not null,
    raised_at timestamptz not null,
    students integer not null,
    cleared_at timestamptz,
    cleared_by integer
  )`,
  `create unique index access_alarms_open on access_alarms (user_id) where cleared_at is null`,
];

export async function migrate021(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
