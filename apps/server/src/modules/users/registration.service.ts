import type { RegisterRequest, SessionUser } from "@tally/contract";
import type { FastifyBaseLogger } from "fastify";
import type { ServerContext } from "../../context.js";
import { refuseCommonPassword } from "../../lib/common-passwords.js";
import { badRequest } from "../../lib/errors.js";
import { recordChange } from "../audit/audit.service.js";
import { hashPassword } from "../../lib/password-hash.js";
import { sendInBackground } from "../mail/background-mail.js";
import { emailVerificationLinkMail } from "../sessions/sessions.service.js";
import { schoolsByIds } from "../schools/schools.service.js";
import { assertLoginsFree, createAccount, loadSessionUser, withUniqueLogins } from "./accounts.service.js";
import { type Actor, assertCanCreate } from "./users.policy.js";

/** POST /auth/register: an administrator creates an account and a verification mail goes out. */
export async function registerUser(
  ctx: ServerContext,
  actor: Actor,
  input: RegisterRequest,
  log: FastifyBaseLogger,
): Promise<SessionUser> {
  assertCanCreate(actor, input.role);
  refuseCommonPassword(input.password);
  const db = ctx.database.db;
  await assertLoginsFree(db, { username: input.username, email: input.email });

  const schoolId = input.role === "school_user" ? (input.school_id ?? null) : null;
  const schoolIds = input.role === "district_user" ? [...new Set(input.school_ids ?? [])] : [];
  if (schoolId !== null && (await schoolsByIds(db, [schoolId])).length !== 1) {
    throw badRequest("The selected school does not exist");
  }
  if (schoolIds.length > 0 && (await schoolsByIds(db, schoolIds)).length !== schoolIds.length) {
    throw badRequest("One or more of the selected schools do not exist");
  }

  const passwordHash = await hashPassword(input.password);
  const now = ctx.clock.now();
  const user = await withUniqueLogins(() =>
    db.transaction().execute(async (trx) => {
      const created = await createAccount(
        trx,
        {
          username: input.username,
          email: input.email,
          password_hash: passwordHash,
          role: input.role,
          school_id: schoolId,
          created_at: now,
          updated_at: now,
        },
        schoolIds,
      );
      // The new account as set up, without its password (hash).
      const after = { username: created.username, email: created.email, role: created.role, school_id: schoolId, school_ids: schoolIds, is_active: created.is_active };
      await recordChange(trx, { actorId: actor.id, action: "user.created", entity: "user", entityId: created.id, before: null, after, at: now });
      return created;
    }),
  );

  sendInBackground(ctx, await emailVerificationLinkMail(ctx, user), log);
  const created = await loadSessionUser(db, user.id);
  if (!created) throw new Error("created user vanished");
  return created;
}
