import type { DbExecutor } from "../../db/executor.js";

// oidc_handoffs (migration 020): the one-time codes that end a single sign-on in the browser.

export async function insertHandoff(
  db: DbExecutor,
  h: { codeHash: string; browserHash: string; userId: number; provider: string; multiFactor: boolean; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto("oidc_handoffs")
    .values({
      code_hash: h.codeHash,
      browser_hash: h.browserHash,
      user_id: h.userId,
      provider: h.provider,
      multi_factor: h.multiFactor,
      created_at: h.createdAt,
      expires_at: h.expiresAt,
    })
    .execute();
  // Spent and expired codes are of no further use; each new one clears them away.
  await db.deleteFrom("oidc_handoffs").where("expires_at", "<", new Date(h.createdAt.getTime() - 3_600_000)).execute();
}

/**
 * Takes the code, for the browser that started its sign-in only: one statement, so of two
 * exchanges at once only one gets the row.
 */
export function takeHandoff(db: DbExecutor, codeHash: string, browserHash: string, now: Date) {
  return db
    .updateTable("oidc_handoffs")
    .set({ used_at: now })
    .where("code_hash", "=", codeHash)
    .where("browser_hash", "=", browserHash)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .returning(["user_id", "provider", "multi_factor"])
    .executeTakeFirst();
}
