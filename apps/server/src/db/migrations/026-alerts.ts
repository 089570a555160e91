import { type Kysely, sql } from "kysely";

// Issue 30 "Early warning". The rules themselves live in settings (key 'alert_rules', one
// document: rules, cohort overrides, schedule), validated by the contract on every read.
// alerts: one row per student, rule, cohort and episode. An episode is open while its condition
// lasts (condition_ended_at null); the partial unique index keeps one live episode per key, so
// evaluation updates (and escalates) it instead of adding one a week. year_start is the
// programme year (from 1 August) the episode belongs to: a new year starts new episodes.
// raised_by_batch: the import batch whose data first raised the episode (undo withdraws it).
// alert_events: the timeline (state changes, notes, escalations), kept with the alert.
// digest_deliveries: one row per user and week, claimed atomically by the first instance that
// inserts it (exactly once across restarts and instances); attempts and sent_at give the retry.
const up: string[] = [
  `create table alerts (
    id serial primary key,
    student_id integer not null references students(id) on delete cascade,
    cohort_id integer not null references cohorts(id) on delete cascade,
    rule text not null,
    severity text not null,
    state text not null default 'open',
    level integer not null,
    evidence text not null,
    details jsonb not null,
    year_start date not null,
    raised_by_batch integer references import_batches(id) on delete set null,
    opened_at timestamptz not null,
    updated_at timestamptz not null,
    condition_ended_at timestamptz,
    state_changed_at timestamptz,
    state_changed_by integer references users(id) on delete set null,
    resolved_level integer,
    assignee_id integer references users(id) on delete set null,
    data_withdrawn boolean not null default false,
    check (state in ('open', 'acknowledged', 'resolved', 'dismissed')),
    check (severity in ('info', 'warning', 'urgent'))
  )`,
  `create unique index alerts_live_episode on alerts (student_id, rule, cohort_id) where condition_ended_at is null`,
  `create index alerts_state_severity on alerts (state, severity, opened_at desc)`,
  `create index alerts_cohort on alerts (cohort_id, state)`,
  `create index alerts_assignee on alerts (assignee_id) where assignee_id is not null`,
  `create table alert_events (
    id serial primary key,
    alert_id integer not null references alerts(id) on delete cascade,
    at timestamptz not null,
    kind text not null,
    user_id integer references users(id) on delete set null,
    note text,
    level integer
  )`,
  `create index alert_events_alert on alert_events (alert_id, at)`,
  `alter table users add column digest_enabled boolean not null default true`,
  `create table digest_deliveries (
    user_id integer not null references users(id) on delete cascade,
    week_start date not null,
    claimed_at timestamptz not null,
    sent_at timestamptz,
    attempts integer not null default 0,
    last_error text,
    alerts integer not null default 0,
    primary key (user_id, week_start)
  )`,
];

export async function migrate026(db: Kysely<unknown>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}
