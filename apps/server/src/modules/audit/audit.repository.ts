import type { AuditFilter } from "@tally/contract";
import { type Expression, type SqlBool, sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";

export interface AuditEntry {
  actorId: number | null;
  action: string;
  entity: string;
  entityId: string | number | null;
  before: unknown;
  after: unknown;
  at: Date;
  /** The client's address; recordChange fills it in from the request being served. */
  clientAddress?: string | null;
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
      client_address: e.clientAddress ?? null,
    })
    .execute();
}

const DAY_MS = 24 * 60 * 60_000;

/** The filter as bounds: dates are whole UTC days, both ends included. */
function filtered(db: DbExecutor, filter: AuditFilter) {
  return db
    .selectFrom("audit_log as a")
    .leftJoin("users as u", "u.id", "a.actor_id")
    .where((eb) => {
      const and: Expression<SqlBool>[] = [];
      if (filter.actorId !== undefined) and.push(eb("a.actor_id", "=", filter.actorId));
      if (filter.action !== undefined) and.push(eb("a.action", "=", filter.action));
      if (filter.entity !== undefined) and.push(eb("a.entity", "=", filter.entity));
      if (filter.from !== undefined) and.push(eb("a.at", ">=", new Date(`${filter.from}T00:00:00Z`)));
      if (filter.to !== undefined) and.push(eb("a.at", "<", new Date(Date.parse(`${filter.to}T00:00:00Z`) + DAY_MS)));
      return eb.and(and);
    });
}

const COLUMNS = [
  "a.id",
  "a.at",
  "a.actor_id",
  "u.username as actor_name",
  "a.client_address",
  "a.action",
  "a.entity",
  "a.entity_id",
  "a.before",
  "a.after",
] as const;

/** One page of the filtered log, newest first, and how many rows match in all. */
export async function findAuditEntries(db: DbExecutor, filter: AuditFilter, page: { limit: number; offset: number }) {
  const [rows, total] = await Promise.all([
    filtered(db, filter)
      .select(COLUMNS)
      .orderBy("a.at", "desc")
      .orderBy("a.id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    filtered(db, filter).select((eb) => eb.fn.countAll<string>().as("count")).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.count) };
}
export type AuditRow = Awaited<ReturnType<typeof findAuditEntries>>["rows"][number];

/**
 * The filtered rows older than `before` (newest first), a page at a time for the CSV: keyed on
 * (at, id) so a long export neither skips nor repeats rows when new ones arrive meanwhile.
 */
export function findAuditEntriesBefore(
  db: DbExecutor,
  filter: AuditFilter,
  before: { at: Date; id: number } | undefined,
  limit: number,
): Promise<AuditRow[]> {
  let query = filtered(db, filter).select(COLUMNS);
  if (before) {
    query = query.where((eb) =>
      eb.or([eb("a.at", "<", before.at), eb.and([eb("a.at", "=", before.at), eb("a.id", "<", before.id)])]),
    );
  }
  return query.orderBy("a.at", "desc").orderBy("a.id", "desc").limit(limit).execute();
}

/** Everyone who appears in the log as an actor, and every action and entity in it. */
export async function findAuditChoices(db: DbExecutor) {
  const [actors, actions, entities] = await Promise.all([
    db
      .selectFrom("users as u")
      .select(["u.id", "u.username as name"])
      .where((eb) => eb.exists(eb.selectFrom("audit_log as a").select("a.id").whereRef("a.actor_id", "=", "u.id")))
      .orderBy("u.username")
      .execute(),
    db.selectFrom("audit_log").select("action").distinct().orderBy("action").execute(),
    db.selectFrom("audit_log").select("entity").distinct().orderBy("entity").execute(),
  ]);
  return { actors, actions: actions.map((r) => r.action), entities: entities.map((r) => r.entity) };
}

/** The rows of one action on one kind of entity at or after `since`, oldest first, with the actor's name. */
export function findChangesSince(db: DbExecutor, filter: { entity: string; action: string; since: Date }) {
  return db
    .selectFrom("audit_log as a")
    .leftJoin("users as u", "u.id", "a.actor_id")
    .select(["a.entity_id", "a.at", "u.username as actor_name", "a.after"])
    .where("a.entity", "=", filter.entity)
    .where("a.action", "=", filter.action)
    .where("a.at", ">=", filter.since)
    .orderBy("a.at")
    .orderBy("a.id")
    .execute();
}

/** Newest first (tests read it). */
export function listAuditEntries(db: DbExecutor, filter: { entity?: string; limit: number }) {
  let query = db.selectFrom("audit_log").selectAll().orderBy("at", "desc").orderBy("id", "desc").limit(filter.limit);
  if (filter.entity) query = query.where("entity", "=", filter.entity);
  return query.execute();
}

/** The ids a page of the log names (its entities, and the schools and cohorts in its values). */
export interface NamedIds {
  users: number[];
  schools: number[];
  cohorts: number[];
  students: number[];
}

/**
 * The names of those ids, read by primary key (a page names a few dozen at most). The audit page
 * is for super admins, who see every school, so no scope is applied.
 */
export async function findNames(db: DbExecutor, ids: NamedIds) {
  const none = Promise.resolve([] as Array<{ id: number; name: string }>);
  const [users, schools, cohorts, students] = await Promise.all([
    ids.users.length ? db.selectFrom("users").select(["id", "username as name"]).where("id", "in", ids.users).execute() : none,
    ids.schools.length ? db.selectFrom("schools").select(["id", "name"]).where("id", "in", ids.schools).execute() : none,
    ids.cohorts.length ? db.selectFrom("cohorts").select(["id", "name"]).where("id", "in", ids.cohorts).execute() : none,
    ids.students.length
      ? db
          .selectFrom("students")
          .select(["id", sql<string>`first_name || ' ' || last_name`.as("name")])
          .where("id", "in", ids.students)
          .execute()
      : none,
  ]);
  return { users, schools, cohorts, students };
}
