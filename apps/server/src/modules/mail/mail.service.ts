import type { ServerContext } from "../../context.js";
import { listOutbox } from "./mail.repository.js";

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
