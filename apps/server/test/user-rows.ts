import type { Kysely } from "kysely";
import type { Database } from "../src/db/schema.js";

// Reads of the users tables for expectations, written apart from the repositories under test.

export async function sessionVersionOf(db: Kysely<Database>, userId: number): Promise<number> {
  const row = await db.selectFrom("users").select("session_version").where("id", "=", userId).executeTakeFirstOrThrow();
  return row.session_version;
}

export async function userRow(db: Kysely<Database>, userId: number) {
  return db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
}

export async function userSchoolIds(db: Kysely<Database>, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom("user_schools")
    .select("school_id")
    .where("user_id", "=", userId)
    .orderBy("school_id")
    .execute();
  return rows.map((r) => r.school_id);
}
