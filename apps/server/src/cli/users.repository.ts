import type { Kysely } from "kysely";
import type { Database, NewUser } from "../db/schema.js";

/** The given school ids that do not exist. */
export async function findMissingSchoolIds(db: Kysely<Database>, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const found = await db.selectFrom("schools").select("id").where("id", "in", ids).execute();
  const have = new Set(found.map((s) => s.id));
  return ids.filter((id) => !have.has(id));
}

/** An existing account with this username or e-mail, compared case-insensitively as the unique indexes do. */
export async function findUserByUsernameOrEmail(
  db: Kysely<Database>,
  username: string,
  email: string,
): Promise<{ username: string; email: string } | undefined> {
  return db
    .selectFrom("users")
    .select(["username", "email"])
    .where((eb) =>
      eb.or([
        eb(eb.fn("lower", ["username"]), "=", username.toLowerCase()),
        eb(eb.fn("lower", ["email"]), "=", email.toLowerCase()),
      ]),
    )
    .executeTakeFirst();
}

/** Inserts the user and, for district users, their schools, in one transaction. */
export async function insertUserWithSchools(db: Kysely<Database>, user: NewUser, schoolIds: number[]): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { id } = await trx.insertInto("users").values(user).returning("id").executeTakeFirstOrThrow();
    if (schoolIds.length > 0) {
      await trx
        .insertInto("user_schools")
        .values(schoolIds.map((schoolId) => ({ user_id: id, school_id: schoolId })))
        .execute();
    }
    return id;
  });
}
