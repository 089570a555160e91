import { MESSAGES } from "@tally/contract";
import type { ServerContext } from "../../context.js";
import { markEmailVerified } from "../users/accounts.service.js";
import { consumeOneTimeToken, findOneTimeToken } from "../sessions/sessions.service.js";
import { invalidToken } from "./password.service.js";

/** POST (or GET) /auth/verify: marks the address verified; the link works once. */
export async function verifyEmail(ctx: ServerContext, token: string): Promise<void> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const row = await findOneTimeToken(db, token, "email_verify");
  if (!row) throw invalidToken(MESSAGES.verifyFailed);
  const done = await db.transaction().execute(async (trx) => {
    if (!(await consumeOneTimeToken(trx, row.id, now))) return false;
    await markEmailVerified(trx, row.user_id, now);
    return true;
  });
  if (!done) throw invalidToken(MESSAGES.verifyFailed);
}
