import type { ServerContext } from "../../context.js";
import type { DbExecutor } from "../../db/executor.js";
import type { OneTimeTokenPurpose } from "../../db/schema.js";
import * as repo from "./sessions.repository.js";
import { hashToken, randomToken } from "../auth/access-tokens.js";

// What other modules may do to the tokens this module owns (refresh_tokens, one_time_tokens).
// It depends on nothing outside auth, so the accounts module can call it without a cycle.

const MINUTE = 60_000;

/** Ends every sign-in of the user: its refresh tokens, and with them (see authenticateToken) its access tokens. */
export async function revokeAllSessions(db: DbExecutor, userId: number, at: Date): Promise<void> {
  await repo.revokeAllRefreshTokens(db, userId, at);
}

/** Stores the digest of a new one-time token and returns the token itself, for the link. */
export async function createOneTimeToken(
  ctx: ServerContext,
  userId: number,
  purpose: OneTimeTokenPurpose,
  ttlMinutes: number,
): Promise<string> {
  const token = randomToken();
  const now = ctx.clock.now();
  await repo.insertOneTimeToken(ctx.database.db, {
    userId,
    purpose,
    tokenHash: hashToken(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttlMinutes * MINUTE),
  });
  return token;
}
