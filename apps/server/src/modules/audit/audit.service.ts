import type { DbExecutor } from "../../db/executor.js";
import * as repo from "./audit.repository.js";

export type { AuditEntry } from "./audit.repository.js";

/**
 * Records one admin change. Pass the transaction that made the change, so the change and its
 * record commit (or roll back) together.
 */
export function recordChange(db: DbExecutor, entry: repo.AuditEntry): Promise<void> {
  return repo.insertAuditEntry(db, entry);
}

export function listChanges(db: DbExecutor, filter: { entity?: string; limit?: number } = {}) {
  return repo.listAuditEntries(db, { entity: filter.entity, limit: filter.limit ?? 100 });
}
