import type { ServerContext } from "../../context.js";
import type { DbExecutor } from "../../db/executor.js";
import type { OutboxStore } from "../../lib/mailer.js";
import { insertOutboxMail, listOutbox } from "./mail.repository.js";

/** The mail kept in the database when no SMTP server is configured, with its one-time links withheld. */
export async function readOutbox(ctx: ServerContext, page: { limit: number; offset: number }) {
  const { rows, total } = await listOutbox(ctx.database.db, page);
  return {
    data: rows.map((r) => ({
      ...r,
      created_at: new Date(r.created_at).toISOString(),
      sent_at: r.sent_at ? new Date(r.sent_at).toISOString() : null,
    })),
    total,
  };
}

/** Where the mailer keeps mail when there is no SMTP server: this module's mail_outbox table. */
export function databaseOutbox(db: DbExecutor): OutboxStore {
  return (mail) => insertOutboxMail(db, mail);
}
