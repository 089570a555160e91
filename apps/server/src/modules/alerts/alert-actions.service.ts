import { type Alert, type AlertBulkBody, type AlertState, isAdminRole } from "@tally/contract";
import type { ServerContext } from "../../context.js";
import type { DbExecutor } from "../../db/executor.js";
import { AppError, badRequest, conflict, forbidden, notFound } from "../../lib/errors.js";
import { recordChange } from "../audit/audit.service.js";
import { resolveScope, type ScopeSubject } from "../scope/scope.js";
import { schoolScope } from "../scope/scope.policy.js";
import * as repo from "./alert-actions.repository.js";
import { findAlertRow } from "./alerts-list.repository.js";
import { toAlert } from "./alerts-list.service.js";

// The follow-up: open → acknowledged → resolved (with a note) or dismissed (with a reason).
// Anyone who sees the student may act, in their own scope (the dashboards'); an alert they do
// not see is the same 404 as one that does not exist. Each change writes its timeline event
// and its audit row in the transaction that makes it.

type Caller = ScopeSubject & { id: number };
export type StateAction = "acknowledge" | "resolve" | "dismiss";

const TARGET: Record<StateAction, { state: "acknowledged" | "resolved" | "dismissed"; from: readonly AlertState[]; past: string }> = {
  acknowledge: { state: "acknowledged", from: ["open"], past: "acknowledged" },
  resolve: { state: "resolved", from: ["open", "acknowledged"], past: "resolved" },
  dismiss: { state: "dismissed", from: ["open", "acknowledged"], past: "dismissed" },
};

const fromWords = (from: readonly AlertState[]) => (from.length === 1 ? `an ${from[0]} alert` : `an open or acknowledged alert`);

/** One transition inside the caller's transaction; throws 404 or 409 before writing anything. */
async function changeState(trx: DbExecutor, now: Date, user: Caller, id: number, action: StateAction, text: string | null): Promise<void> {
  const scope = await resolveScope(trx, user);
  if (!(await findAlertRow(trx, scope, id))) throw notFound();
  const current = await repo.lockAlert(trx, id);
  if (!current) throw notFound();
  const target = TARGET[action];
  if (!target.from.includes(current.state)) {
    throw conflict(`Alert ${id} is ${current.state}: only ${fromWords(target.from)} can be ${target.past}`);
  }
  const ends = action !== "acknowledge";
  await repo.setAlertState(trx, id, { state: target.state, at: now, userId: user.id, resolvedLevel: ends ? current.level : undefined });
  await repo.insertAlertEvent(trx, { alertId: id, at: now, kind: target.state, userId: user.id, note: text, level: current.level });
  await recordChange(trx, {
    actorId: user.id,
    action: `alert.${target.state}` as "alert.acknowledged",
    entity: "alert",
    entityId: id,
    before: { state: current.state },
    after: { state: target.state, ...(text === null ? {} : { [action === "dismiss" ? "reason" : "note"]: text }) },
    at: now,
  });
}

async function alertFor(db: DbExecutor, user: Caller, id: number): Promise<Alert> {
  const row = await findAlertRow(db, await resolveScope(db, user), id);
  if (!row) throw notFound();
  return toAlert(row);
}

/** POST /alerts/:id/acknowledge, /resolve (note), /dismiss (reason): the alert as it now is. */
export async function changeAlertState(ctx: ServerContext, user: Caller, id: number, action: StateAction, text: string | null): Promise<Alert> {
  const db = ctx.database.db;
  await db.transaction().execute((trx) => changeState(trx, ctx.clock.now(), user, id, action, text));
  return alertFor(db, user, id);
}

/** Whether the user may be assigned an alert: active, and sees the alert's student. */
async function assigneeSees(db: DbExecutor, userId: number, alertId: number): Promise<{ username: string } | undefined> {
  const user = await repo.findAssignee(db, userId);
  if (!user?.is_active) return undefined;
  const scope = await resolveScope(db, { role: user.role, accessibleSchoolIds: schoolScope(user.role, user.school_id, user.assignedSchoolIds) });
  return (await findAlertRow(db, scope, alertId)) ? { username: user.username } : undefined;
}

const NOT_ASSIGNABLE = "userId must be an active user who sees the alert's student";
const TAKEN_BY_OTHER = "Only an admin can remove another user's assignment";

/**
 * POST /alerts/:id/assign: to a staff user who sees the student, or to nobody (null). Admins
 * assign anyone who sees the student; everyone else takes an alert themselves and lets go of
 * their own only. Assigning someone else as a non-admin answers exactly as an unknown user
 * does, so walking ids tells nothing of which accounts exist or see the student.
 */
export async function assignAlert(ctx: ServerContext, user: Caller, id: number, assigneeId: number | null): Promise<Alert> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const admin = isAdminRole(user.role);
  await db.transaction().execute(async (trx) => {
    if (!(await findAlertRow(trx, await resolveScope(trx, user), id))) throw notFound();
    const before = await trx.selectFrom("alerts").select("assignee_id").where("id", "=", id).forUpdate().executeTakeFirst();
    let note = "unassigned";
    if (assigneeId !== null) {
      const assignee = admin || assigneeId === user.id ? await assigneeSees(trx, assigneeId, id) : undefined;
      if (!assignee) throw badRequest(NOT_ASSIGNABLE, [{ path: "body.userId", message: NOT_ASSIGNABLE }]);
      note = `assigned to ${assignee.username}`;
    }
    // Taking over or letting go of someone else's alert removes their assignment: admins only.
    const heldByOther = before?.assignee_id != null && before.assignee_id !== user.id && before.assignee_id !== assigneeId;
    if (!admin && heldByOther) throw forbidden(TAKEN_BY_OTHER);
    await repo.setAlertAssignee(trx, id, assigneeId);
    await repo.insertAlertEvent(trx, { alertId: id, at: now, kind: "assigned", userId: user.id, note, level: null });
    await recordChange(trx, {
      actorId: user.id,
      action: "alert.assigned",
      entity: "alert",
      entityId: id,
      before: { assigneeId: before?.assignee_id ?? null },
      after: { assigneeId },
      at: now,
    });
  });
  return alertFor(db, user, id);
}

/**
 * POST /alerts/bulk: the same change on many alerts in one transaction. An alert the caller
 * does not see, or one whose state does not allow the change, is skipped with the reason.
 */
export async function bulkChangeAlerts(
  ctx: ServerContext,
  user: Caller,
  body: AlertBulkBody,
): Promise<{ updated: number; skipped: Array<{ id: number; reason: string }> }> {
  const text = body.action === "resolve" ? body.note : body.action === "dismiss" ? body.reason : undefined;
  if (body.action === "resolve" && text === undefined) throw badRequest("note is required", [{ path: "body.note", message: "note is required" }]);
  if (body.action === "dismiss" && text === undefined) throw badRequest("reason is required", [{ path: "body.reason", message: "reason is required" }]);
  const now = ctx.clock.now();
  const skipped: Array<{ id: number; reason: string }> = [];
  let updated = 0;
  await ctx.database.db.transaction().execute(async (trx) => {
    for (const id of new Set(body.ids)) {
      try {
        await changeState(trx, now, user, id, body.action, text ?? null);
        updated += 1;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        skipped.push({ id, reason: error.statusCode === 404 ? `Alert ${id} was not found` : error.message });
      }
    }
  });
  return { updated, skipped };
}
