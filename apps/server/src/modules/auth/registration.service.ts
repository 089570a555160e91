import { LIMITS, MESSAGES, type RegisterRequest, type Role, type SessionUser } from "@tally/contract";
import type { FastifyBaseLogger } from "fastify";
import type { ServerContext } from "../../context.js";
import { refuseCommonPassword } from "../../lib/common-passwords.js";
import { badRequest, conflict, forbidden } from "../../lib/errors.js";
import { hashPassword } from "../../lib/password-hash.js";
import { emailVerificationMail, sendInBackground } from "./auth-mail.js";
import { canCreateRole } from "./auth.policy.js";
import * as repo from "./auth.repository.js";
import { loadSessionUser } from "./auth.service.js";
import { createOneTimeToken, invalidToken } from "./password.service.js";
import { hashToken } from "./tokens.js";

const USERNAME_TAKEN = "Username already exists";
const EMAIL_TAKEN = "Email already exists";

function isUniqueViolation(err: unknown): err is { code: string; constraint?: string; message: string } {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "23505";
}

/** POST /auth/register: an administrator creates an account and a verification mail goes out. */
export async function registerUser(
  ctx: ServerContext,
  actorRole: Role,
  input: RegisterRequest,
  log: FastifyBaseLogger,
): Promise<SessionUser> {
  if (!canCreateRole(actorRole, input.role)) throw forbidden("Only a super admin can create a super admin");
  refuseCommonPassword(input.password);
  const db = ctx.database.db;
  const taken = await repo.findLoginConflicts(db, input.username, input.email);
  if (taken.usernameTaken) throw conflict(USERNAME_TAKEN);
  if (taken.emailTaken) throw conflict(EMAIL_TAKEN);

  const schoolId = input.role === "school_user" ? (input.school_id ?? null) : null;
  const schoolIds = input.role === "district_user" ? [...new Set(input.school_ids ?? [])] : [];
  if (schoolId !== null && (await repo.countExistingSchools(db, [schoolId])) !== 1) {
    throw badRequest("The selected school does not exist");
  }
  if (schoolIds.length > 0 && (await repo.countExistingSchools(db, schoolIds)) !== schoolIds.length) {
    throw badRequest("One or more of the selected schools do not exist");
  }

  const passwordHash = await hashPassword(input.password);
  const now = ctx.clock.now();
  let userId: number;
  try {
    userId = await db.transaction().execute(async (trx) => {
      const user = await repo.insertUser(trx, {
        username: input.username,
        email: input.email,
        password_hash: passwordHash,
        role: input.role,
        school_id: schoolId,
        created_at: now,
        updated_at: now,
      });
      await repo.insertUserSchools(trx, user.id, schoolIds);
      return user.id;
    });
  } catch (err) {
    // Two simultaneous creations of the same name: the unique index decides.
    if (isUniqueViolation(err)) {
      throw conflict(`${err.constraint ?? err.message}`.includes("email") ? EMAIL_TAKEN : USERNAME_TAKEN);
    }
    throw err;
  }

  const token = await createOneTimeToken(ctx, userId, "email_verify", LIMITS.verifyTokenTtlHours * 60);
  sendInBackground(ctx, emailVerificationMail(ctx.config.appUrl, input.email, input.username, token), log);
  const created = await loadSessionUser(db, userId);
  if (!created) throw new Error("created user vanished");
  return created;
}

/** POST (or GET) /auth/verify: marks the address verified; the link works once. */
export async function verifyEmail(ctx: ServerContext, token: string): Promise<void> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const row = await repo.findOneTimeToken(db, hashToken(token), "email_verify");
  if (!row) throw invalidToken(MESSAGES.verifyFailed);
  const done = await db.transaction().execute(async (trx) => {
    if (!(await repo.consumeOneTimeToken(trx, row.id, now))) return false;
    await repo.markEmailVerified(trx, row.user_id, now);
    return true;
  });
  if (!done) throw invalidToken(MESSAGES.verifyFailed);
}
