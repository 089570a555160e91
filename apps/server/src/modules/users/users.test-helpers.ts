import type { FastifyInstance, InjectOptions } from "fastify";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

type Method = "GET" | "PUT" | "POST" | "DELETE";

/** `call(method, url, headers, payload?)` against the app, as the web client would. */
export function caller(app: FastifyInstance) {
  return (method: Method, url: string, headers: Record<string, string> = {}, payload?: unknown) => {
    const options: InjectOptions = { method, url, headers };
    if (payload !== undefined) options.payload = payload as InjectOptions["payload"];
    return app.inject(options);
  };
}

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
