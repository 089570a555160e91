import type { AlertState } from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import type { AlertEventsTable } from "../../db/schema.js";

/** The alert's state and level, locked until the transaction ends (two follow-ups never cross). */
export async function lockAlert(db: DbExecutor, id: number): Promise<{ state: AlertState; level: number } | undefined> {
  return db.selectFrom("alerts").select(["state", "level"]).where("id", "=", id).forUpdate().executeTakeFirst();
}

export async function setAlertState(
  db: DbExecutor,
  id: number,
  change: { state: AlertState; at: Date; userId: number; resolvedLevel?: number | undefined },
): Promise<void> {
  await db
    .updateTable("alerts")
    .set({
      state: change.state,
      state_changed_at: change.at,
      state_changed_by: change.userId,
      ...(change.resolvedLevel === undefined ? {} : { resolved_level: change.resolvedLevel }),
    })
    .where("id", "=", id)
    .execute();
}

export async function setAlertAssignee(db: DbExecutor, id: number, assigneeId: number | null): Promise<void> {
  await db.updateTable("alerts").set({ assignee_id: assigneeId }).where("id", "=", id).execute();
}

export async function insertAlertEvent(
  db: DbExecutor,
  event: { alertId: number; at: Date; kind: AlertEventsTable["kind"]; userId: number | null; note: string | null; level: number | null },
): Promise<void> {
  await db
    .insertInto("alert_events")
    .values({ alert_id: event.alertId, at: event.at, kind: event.kind, user_id: event.userId, note: event.note, level: event.level })
    .execute();
}

/** A user who might be assigned: role, school, activity and district schools. */
export async function findAssignee(db: DbExecutor, userId: number) {
  const user = await db.selectFrom("users").select(["id", "username", "role", "school_id", "is_active"]).where("id", "=", userId).executeTakeFirst();
  if (!user) return undefined;
  const schools = await db.selectFrom("user_schools").select("school_id").where("user_id", "=", userId).execute();
  return { ...user, assignedSchoolIds: schools.map((s) => s.school_id) };
}
