import type { DbExecutor } from "../../db/executor.js";
import { type DataScope, schoolInScope } from "../scope/scope.js";

/** Schools in scope, by name. */
export async function listSchools(db: DbExecutor, scope: DataScope): Promise<Array<{ id: number; name: string; district: string }>> {
  return db
    .selectFrom("schools as sch")
    .select(["sch.id", "sch.name", "sch.district"])
    .where(schoolInScope(scope, "sch.id"))
    .orderBy("sch.name")
    .orderBy("sch.id")
    .execute();
}

/** The schools among `ids` that exist, by name. */
export function schoolsByIds(db: DbExecutor, ids: readonly number[]): Promise<Array<{ id: number; name: string }>> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("schools")
    .select(["id", "name"])
    .where("id", "in", [...ids])
    .orderBy("name")
    .orderBy("id")
    .execute();
}

export interface AdminSchoolRow {
  id: number;
  name: string;
  district: string;
  student_count: number;
}

/**
 * Schools with the number of students whose school each is (the admin list), by name; `ids`
 * narrows it to those schools. The count reads the students table (owned by students) here,
 * in one query, as the README allows for list reads.
 */
export async function listSchoolsWithCounts(
  db: DbExecutor,
  opts: { excludeIds?: readonly number[]; ids?: readonly number[] } = {},
): Promise<AdminSchoolRow[]> {
  let query = db
    .selectFrom("schools as sch")
    .select([
      "sch.id",
      "sch.name",
      "sch.district",
      (eb) =>
        eb
          .selectFrom("students as s")
          .select((e) => e.fn.countAll<string | number>().as("n"))
          .whereRef("s.school_id", "=", "sch.id")
          .as("student_count"),
    ]);
  if (opts.excludeIds && opts.excludeIds.length > 0) query = query.where("sch.id", "not in", [...opts.excludeIds]);
  if (opts.ids) {
    if (opts.ids.length === 0) return [];
    query = query.where("sch.id", "in", [...opts.ids]);
  }
  const rows = await query.orderBy("sch.name").orderBy("sch.id").execute();
  return rows.map((r) => ({ ...r, student_count: Number(r.student_count ?? 0) }));
}

export interface SchoolRow {
  id: number;
  name: string;
  district: string;
}

/** One school, locked for the rest of the transaction (a rename reads it, then writes it). */
export function findSchoolForUpdate(db: DbExecutor, id: number): Promise<SchoolRow | undefined> {
  return db.selectFrom("schools").select(["id", "name", "district"]).where("id", "=", id).forUpdate().executeTakeFirst();
}

/** Another school whose name equals `name` ignoring case (the unique index's rule). */
export function findSchoolByName(db: DbExecutor, name: string, exceptId?: number): Promise<SchoolRow | undefined> {
  let query = db
    .selectFrom("schools")
    .select(["id", "name", "district"])
    .where((eb) => eb(eb.fn("lower", ["name"]), "=", name.toLowerCase()));
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  return query.executeTakeFirst();
}

export function insertSchool(db: DbExecutor, values: { name: string; district: string; at: Date }): Promise<SchoolRow> {
  return db
    .insertInto("schools")
    .values({ name: values.name, district: values.district, created_at: values.at })
    .returning(["id", "name", "district"])
    .executeTakeFirstOrThrow();
}

export function updateSchool(db: DbExecutor, id: number, fields: { name?: string; district?: string }): Promise<SchoolRow> {
  return db
    .updateTable("schools")
    .set(fields)
    .where("id", "=", id)
    .returning(["id", "name", "district"])
    .executeTakeFirstOrThrow();
}
