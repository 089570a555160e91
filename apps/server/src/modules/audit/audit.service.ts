import {
  type AuditAction,
  type AuditEntity,
  AUDIT_CSV_COLUMNS,
  csvRecord,
  type AuditEntryView,
  type AuditFilter,
  type AuditListQuery,
  type AuditListResponse,
  UTF8_BOM,
} from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import { nameAuditRows } from "./audit-names.js";
import * as repo from "./audit.repository.js";
import { currentClientAddress } from "./client-address.js";

/** A change as the modules record it: its action and entity are contract codes, each with words for the audit page. */
export type AuditEntry = Omit<repo.AuditEntry, "action" | "entity"> & { action: AuditAction; entity: AuditEntity };

/**
 * Records one change. Pass the transaction that made the change, so the change and its
 * record commit (or roll back) together. The client address is the one of the request being
 * served unless the entry names one.
 */
export function recordChange(db: DbExecutor, entry: AuditEntry): Promise<void> {
  return repo.insertAuditEntry(db, { ...entry, clientAddress: entry.clientAddress ?? currentClientAddress() });
}

/** One recorded change, as another module reads it back. */
export interface RecordedChange {
  entityId: string | null;
  at: Date;
  /** The actor's username; null for the system or an account deleted since. */
  actorName: string | null;
  after: unknown;
}

/** The changes of one action on one kind of entity recorded at or after `since`, oldest first. */
export async function changesSince(db: DbExecutor, filter: { entity: string; action: string; since: Date }): Promise<RecordedChange[]> {
  const rows = await repo.findChangesSince(db, filter);
  return rows.map((r) => ({ entityId: r.entity_id, at: new Date(r.at), actorName: r.actor_name, after: r.after }));
}

/** The raw rows, newest first (tests read them). */
export function listChanges(db: DbExecutor, filter: { entity?: string; limit?: number } = {}) {
  return repo.listAuditEntries(db, { entity: filter.entity, limit: filter.limit ?? 100 });
}

const iso = (at: Date | string) => new Date(at).toISOString();

function toView(row: repo.AuditRow, entityName: string | null): AuditEntryView {
  return {
    id: row.id,
    at: iso(row.at),
    actorId: row.actor_id,
    actorName: row.actor_name,
    clientAddress: row.client_address,
    action: row.action,
    entity: row.entity,
    entityId: row.entity_id,
    entityName,
    before: row.before,
    after: row.after,
  };
}

/** GET /audit: a page of the filtered log, newest first, and what the filters can choose from. */
export async function listAuditPage(db: DbExecutor, query: AuditListQuery): Promise<AuditListResponse> {
  const { limit, offset, ...filter } = query;
  const [{ rows, count }, choices] = await Promise.all([
    repo.findAuditEntries(db, filter, { limit, offset }),
    repo.findAuditChoices(db),
  ]);
  const { entityName, names } = await nameAuditRows(db, rows);
  return { rows: rows.map((r) => toView(r, entityName(r))), count, choices, names };
}

const CSV_PAGE = 500;
const json = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value));

/**
 * GET /audit/export.csv: the whole filtered log, newest first, a page at a time so memory stays
 * flat. Cells go through the contract's formula-safe CSV rule (csvCell): a value an import or
 * a user typed that would start a formula, at its start or after a separator, gets an apostrophe.
 */
export async function* auditCsv(db: DbExecutor, filter: AuditFilter): AsyncGenerator<string> {
  yield UTF8_BOM + csvRecord(AUDIT_CSV_COLUMNS);
  let after: { at: Date; id: number } | undefined;
  for (;;) {
    const rows = await repo.findAuditEntriesBefore(db, filter, after, CSV_PAGE);
    let out = "";
    for (const r of rows) {
      out += csvRecord([iso(r.at), r.actor_name ?? (r.actor_id === null ? "" : `#${r.actor_id}`), r.client_address, r.action, r.entity, r.entity_id, json(r.before), json(r.after)]);
    }
    if (out) yield out;
    const last = rows.at(-1);
    if (!last || rows.length < CSV_PAGE) return;
    // Exact: every row's time comes from a JavaScript Date (insertAuditEntry), so milliseconds.
    after = { at: new Date(last.at), id: last.id };
  }
}
