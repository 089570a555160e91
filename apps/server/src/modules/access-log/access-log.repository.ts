import { type Selectable, sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import type { AccessLogTable } from "../../db/schema.js";
import { runChunked } from "../../db/json-rows.js";
import { type DataScope, studentInScope } from "../scope/scope.js";

/** A stored row as a page reads it (the engines give the time as a Date or a string). */
export type AccessRow = Omit<Selectable<AccessLogTable>, "id" | "event" | "at" | "full_export"> & { at: Date | string };

/** One read or export as the recorder buffers it: one row per student named. */
export type AccessEvent = Omit<AccessRow, "at" | "student_id"> & { event: string; at: string; student_ids: number[]; full_export: boolean };

// Few events per statement: one export may name tens of thousands of students.
const EVENTS_PER_STATEMENT = 100;

/** Writes the events, a row per student each, as JSON parameters (the same SQL on both engines). */
export async function insertAccessEvents(db: DbExecutor, events: readonly AccessEvent[]): Promise<void> {
  await runChunked(
    db,
    events,
    (chunk) => sql`insert into access_log (event, at, user_id, username, role, address, action, recipient, full_export, student_id)
      select e.event, e.at, e.user_id, e.username, e.role, e.address, e.action, e.recipient, e.full_export, s.value::int
        from json_to_recordset(${chunk}) as e(event uuid, at timestamptz, user_id int, username text, role text,
                                              address text, action text, recipient text, full_export boolean, student_ids json)
        cross join lateral json_array_elements_text(e.student_ids) s`,
    EVENTS_PER_STATEMENT,
  );
}

export interface AccessFilter {
  studentId?: number | undefined;
  userId?: number | undefined;
  action?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

function filtered(db: DbExecutor, f: AccessFilter) {
  let q = db.selectFrom("access_log as a");
  if (f.studentId !== undefined) q = q.where("a.student_id", "=", f.studentId);
  if (f.userId !== undefined) q = q.where("a.user_id", "=", f.userId);
  if (f.action !== undefined) q = q.where("a.action", "=", f.action);
  // Whole UTC days, both ends included.
  if (f.from !== undefined) q = q.where("a.at", ">=", new Date(`${f.from}T00:00:00Z`));
  if (f.to !== undefined) q = q.where("a.at", "<", new Date(new Date(`${f.to}T00:00:00Z`).getTime() + 86_400_000));
  return q;
}

/** A page of the filtered record, newest first, and how many rows match. */
export async function findAccess(db: DbExecutor, f: AccessFilter, page: { limit: number; offset: number }) {
  const [rows, total] = await Promise.all([
    filtered(db, f)
      .select(["a.at", "a.user_id", "a.username", "a.role", "a.address", "a.action", "a.recipient", "a.student_id"])
      .orderBy("a.at", "desc")
      .orderBy("a.id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    filtered(db, f).select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as AccessRow[], total: Number(total.n) };
}

/** Whether the student exists and is in the caller's scope (else the record is a 404 too). */
export async function studentVisible(db: DbExecutor, scope: DataScope, studentId: number): Promise<boolean> {
  const row = await db
    .selectFrom("students as s")
    .select("s.id")
    .where("s.id", "=", studentId)
    .where(studentInScope(scope, "s", { single: true }))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * What the user did since `since`, as the bulk-export alarm counts it: the distinct students
 * viewed or exported, and the full exports (filters narrowing nothing but the cohort).
 */
export async function countAccessSince(
  db: DbExecutor,
  userId: number,
  since: Date,
): Promise<{ students: number; fullExports: number }> {
  const row = await db
    .selectFrom("access_log")
    .select([
      sql<string>`count(distinct student_id)`.as("students"),
      sql<string>`count(distinct event) filter (where full_export)`.as("full_exports"),
    ])
    .where("user_id", "=", userId)
    .where("at", ">=", since)
    .executeTakeFirst();
  return { students: Number(row?.students ?? 0), fullExports: Number(row?.full_exports ?? 0) };
}

/** Raises the user's alarm unless one stands; true when this call raised it. */
export async function raiseAlarm(db: DbExecutor, userId: number, students: number, at: Date): Promise<boolean> {
  const { rows } = await sql<{ id: number }>`insert into access_alarms (user_id, raised_at, students) values (${userId}, ${at}, ${students})
    on conflict (user_id) where cleared_at is null do nothing returning id`.execute(db);
  return rows.length > 0;
}

export async function hasOpenAlarm(db: DbExecutor, userId: number): Promise<boolean> {
  const row = await db.selectFrom("access_alarms").select("id").where("user_id", "=", userId).where("cleared_at", "is", null).executeTakeFirst();
  return row !== undefined;
}

/** When a super admin last cleared the user's alarm (null: never). */
export async function lastClearedAt(db: DbExecutor, userId: number): Promise<Date | null> {
  const row = await db
    .selectFrom("access_alarms")
    .select((eb) => eb.fn.max("cleared_at").as("at"))
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.at ? new Date(row.at) : null;
}

/** Clears the user's standing alarm; true when there was one. */
export async function clearAlarm(db: DbExecutor, userId: number, by: number, at: Date): Promise<boolean> {
  const rows = await db
    .updateTable("access_alarms")
    .set({ cleared_at: at, cleared_by: by })
    .where("user_id", "=", userId)
    .where("cleared_at", "is", null)
    .returning("id")
    .execute();
  return rows.length > 0;
}
