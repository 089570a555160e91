import type { DbExecutor } from "../../db/executor.js";

export interface AuditEntry {
  actorId: number | null;
  action: string;
  entity: string;
  entityId: string | number | null;
  before: unknown;
  after: unknown;
  at: Date;
}

export async function insertAuditEntry(db: DbExecutor, e: AuditEntry): Promise<void> {
  await db
    .insertInto("audit_log")
    .values({
      at: e.at,
      actor_id: e.actorId,
      action: e.action,
      entity: e.entity,
      entity_id: e.entityId === null ? null : String(e.entityId),
      before: JSON.stringify(e.before ?? null),
      after: JSON.stringify(e.after ?? null),
    })
    .execute();
}

/** Newest first (the admin audit screen of a later issue; tests read it today). */
export function listAuditEntries(db: DbExecutor, filter: { entity?: string; limit: number }) {
  let query = db.selectFrom("audit_log").selectAll().orderBy("at", "desc").orderBy("id", "desc").limit(filter.limit);
  if (filter.entity) query = query.where("entity", "=", filter.entity);
  return query.execute();
}
