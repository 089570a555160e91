import { type Kysely, sql } from "kysely";

// Issue 14: what the live connection tells a signed-in client (FORCE_LOGOUT, ...). Rows are
// written in the transaction that ends the sessions, so a client reconnecting (Last-Event-ID)
// or polling sees the same events the stream sent; they are kept a day. The poll cursor is per
// user: the last notification id a poll has returned.
const up: string[] = [
  `create table notifications (
    id bigserial primary key,
    user_id integer not null references users(id) on delete cascade,
    type text not null,
    reason text,
    message text,
    created_at timestamptz not null default now()
  )`,
  `create index notifications_user on notifications (user_id, id)`,
  `create index notifications_created on notifications (created_at)`,
  `create table notification_poll_cursors (
    user_id integer primary key references users(id) on delete cascade,
    last_id bigint not null,
    polled_at timestamptz not null default now()
  )`,
];

export async function migrate013(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
