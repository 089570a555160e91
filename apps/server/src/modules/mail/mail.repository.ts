import type { DbExecutor } from "../../db/executor.js";
import type { OutboxMail } from "../../lib/mailer.js";

/** Outbox mails, newest first, with the total for paging. */
export async function listOutbox(db: DbExecutor, page: { limit: number; offset: number }) {
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

/** Keeps one mail in the outbox; returns its id. */
export async function insertOutboxMail(db: DbExecutor, mail: OutboxMail): Promise<number> {
  const row = await db
    .insertInto("mail_outbox")
    .values({ to_address: mail.to, subject: mail.subject, text_body: mail.text, html_body: mail.html })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
