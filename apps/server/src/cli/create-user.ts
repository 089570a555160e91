import { LIMITS, MESSAGES, passwordStrength, type RegisterRequest, registerRequestSchema, ROLES, type Role } from "@tally/contract";
import { isCommonPassword } from "../lib/common-passwords.js";
import { hashPassword } from "../lib/password-hash.js";
import { CliError, UsageError } from "./cli-errors.js";
import type { CliCommand, CliIo } from "./cli-io.js";
import { parseOptions, positiveInt } from "./parse-options.js";
import { schoolsByIds } from "../modules/schools/schools.service.js";
import { createAccount, findAccountsByLogin } from "../modules/users/accounts.service.js";

const NAME = "create-user";
const OPTIONS = ["username", "email", "role", "password", "school-id", "school-ids"] as const;
const FLAG_OF: Record<string, string> = {
  username: "--username",
  email: "--email",
  role: "--role",
  password: "--password",
  school_id: "--school-id",
  school_ids: "--school-ids",
};

/**
 * Checks create-user's arguments as POST /auth/register does (same schema, same messages),
 * then asks for the password on the terminal when --password is absent.
 */
export async function prepareCreateUser(args: string[], io: CliIo): Promise<RegisterRequest> {
  const o = parseOptions(NAME, args, OPTIONS);
  for (const required of ["username", "email", "role"] as const) {
    if (o[required] === undefined) throw new UsageError(`--${required} is required.`, NAME);
  }
  const role = o.role as string;
  if (!(ROLES as readonly string[]).includes(role)) {
    throw new UsageError(`--role must be one of ${ROLES.join(", ")} (got "${role}").`, NAME);
  }
  if (o["school-id"] !== undefined && role !== "school_user") throw new UsageError("--school-id is only for --role school_user.", NAME);
  if (o["school-ids"] !== undefined && role !== "district_user") throw new UsageError("--school-ids is only for --role district_user.", NAME);
  const draft = {
    username: o.username as string,
    email: o.email as string,
    role: role as Role,
    school_id: o["school-id"] === undefined ? undefined : positiveInt(NAME, "school-id", o["school-id"]),
    school_ids: o["school-ids"] === undefined ? undefined : schoolIdList(o["school-ids"]),
  };
  // Everything but the password is checked before anyone is asked to type one.
  validate({ ...draft, password: "x".repeat(LIMITS.minPasswordLength) });
  const password = o.password ?? (await askPassword(io));
  const request = validate({ ...draft, password });
  if (isCommonPassword(password)) throw new UsageError(`--password: ${MESSAGES.passwordTooCommon}`, NAME);
  if (passwordStrength(password) < LIMITS.passwordStrengthPass) {
    io.err("Warning: this password is weak; mix upper and lower case, digits and symbols.");
  }
  return request;
}

export const createUserCommand: CliCommand<RegisterRequest> = {
  prepare: prepareCreateUser,
  async run({ db, io }, request) {
    const schoolIds = request.role === "district_user" ? [...new Set(request.school_ids ?? [])] : [];
    const schoolId = request.role === "school_user" ? (request.school_id ?? null) : null;
    const wanted = schoolId === null ? schoolIds : [schoolId];
    const found = new Set((await schoolsByIds(db, wanted)).map((s) => s.id));
    const missing = wanted.filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw new CliError(`No school has id ${missing.join(", ")}.`, 2);
    }
    const [byName] = await findAccountsByLogin(db, request.username.toLowerCase());
    const existing = byName ?? (await findAccountsByLogin(db, request.email.toLowerCase()))[0];
    if (existing) {
      const clash =
        existing.username.toLowerCase() === request.username.toLowerCase()
          ? `username "${existing.username}"`
          : `e-mail ${existing.email}`;
      throw new CliError(`A user with the ${clash} already exists.`);
    }
    const passwordHash = await hashPassword(request.password);
    const { id } = await db.transaction().execute((trx) =>
      createAccount(
        trx,
        {
          username: request.username,
          email: request.email,
          password_hash: passwordHash,
          role: request.role,
          school_id: schoolId,
          // The operator typed the address on the server itself; there is no link to click yet.
          email_verified: true,
        },
        schoolIds,
      ),
    );
    const where = schoolId !== null ? `, school ${schoolId}` : schoolIds.length > 0 ? `, schools ${schoolIds.join(", ")}` : "";
    io.out(`Created ${request.role} "${request.username}" <${request.email}> (id ${id}${where}).`);
  },
};

function validate(input: Record<string, unknown>): RegisterRequest {
  const parsed = registerRequestSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `${FLAG_OF[String(i.path[0])] ?? String(i.path[0] ?? "")}: ${i.message}`);
  throw new UsageError([...new Set(lines)].join("\n"), NAME);
}

function schoolIdList(value: string): number[] {
  const parts = value.split(",").map((p) => p.trim()).filter((p) => p !== "");
  if (parts.length === 0) throw new UsageError(`--school-ids: ${MESSAGES.selectSchools}`, NAME);
  return parts.map((p) => positiveInt(NAME, "school-ids", p));
}

async function askPassword(io: CliIo): Promise<string> {
  if (!io.readSecret) throw new UsageError("--password is required when the command does not run in a terminal.", NAME);
  const first = await io.readSecret("Password: ");
  const second = await io.readSecret("Repeat the password: ");
  if (first !== second) throw new UsageError(MESSAGES.passwordsDoNotMatch, NAME);
  return first;
}
