import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

/** Outbox mails, newest first, with the total for paging. */
export async function listOutbox(db: Kysely<Database>, page: { limit: number; offset: number }) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom("mail_outbox")
      .select(["id", "to_address", "subject", "text_body", "created_at", "sent_at"])
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom("mail_outbox")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}
