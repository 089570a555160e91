import type { LoginResponse, Role } from "@tally/contract";
import type { FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import type { Database, School, User } from "../src/db/schema.js";
import { hashPassword } from "../src/lib/password-hash.js";

let sequence = 0;
const next = () => `${process.pid}-${++sequence}`;

/** Strong enough for the set-password rules (score 5 of 5). */
export const DEFAULT_PASSWORD = "Correct-Horse-7";
let defaultHash: Promise<string> | undefined;

export async function buildSchool(
  db: Kysely<Database>,
  overrides: Partial<Pick<School, "name" | "district">> = {},
): Promise<School> {
  return db
    .insertInto("schools")
    .values({ name: overrides.name ?? `School ${next()}`, district: overrides.district ?? "" })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface BuildUserOptions {
  role: Role;
  password?: string;
  username?: string;
  email?: string;
  /** school_user: defaults to a new school. */
  schoolId?: number;
  /** district_user: rows in user_schools. */
  schoolIds?: number[];
  isActive?: boolean;
  emailVerified?: boolean;
}

export type BuiltUser = User & { password: string; schoolIds: number[] };

/** A user row plus the plain password it was created with. */
export async function buildUser(db: Kysely<Database>, options: BuildUserOptions): Promise<BuiltUser> {
  const id = next();
  const password = options.password ?? DEFAULT_PASSWORD;
  // argon2 is deliberately slow: hash the common default once per test file.
  const passwordHash =
    options.password === undefined ? await (defaultHash ??= hashPassword(DEFAULT_PASSWORD)) : await hashPassword(password);
  const schoolId =
    options.role === "school_user" ? (options.schoolId ?? (await buildSchool(db)).id) : (options.schoolId ?? null);
  const schoolIds = options.role === "district_user" ? (options.schoolIds ?? []) : [];
  const user = await db
    .insertInto("users")
    .values({
      username: options.username ?? `user-${id}`,
      email: options.email ?? `user-${id}@example.test`,
      password_hash: passwordHash,
      role: options.role,
      school_id: schoolId,
      is_active: options.isActive ?? true,
      email_verified: options.emailVerified ?? true,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (schoolIds.length > 0) {
    await db
      .insertInto("user_schools")
      .values(schoolIds.map((school_id) => ({ user_id: user.id, school_id })))
      .execute();
  }
  return { ...user, password, schoolIds };
}

export interface LoggedIn extends LoginResponse {
  /** Ready to spread into inject({ headers }). */
  headers: { authorization: string };
}

/** Signs in through POST /api/auth/login, as the web app does. */
export async function loginAs(
  app: FastifyInstance,
  user: { username: string; password: string },
): Promise<LoggedIn> {
  const res = await app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { login: user.username, password: user.password },
  });
  if (res.statusCode !== 200) throw new Error(`loginAs(${user.username}) failed: ${res.statusCode} ${res.body}`);
  const body = res.json<LoginResponse>();
  return { ...body, headers: { authorization: `Bearer ${body.token}` } };
}
