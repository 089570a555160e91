import { type Kysely, sql } from "kysely";

// Mail kept in the outbox before links were withheld still carries live reset and
// verification links, readable by whoever may read the outbox. Each such link becomes the
// marker the mailer now writes in its place (lib/mailer.ts WITHHELD_LINK; copied here so
// this migration keeps its meaning if that text changes).
const MARKER = "[one-time link withheld: it is only delivered by e-mail]";
// A link holding ?token=, &token= or #token= (the set-password and verify links), up to the
// end of its base64url (or percent-encoded) token.
const LINK = `[^[:space:]"'<>]*[?&#]token=[A-Za-z0-9_%-]*`;

export async function migrate006(db: Kysely<unknown>): Promise<void> {
  await sql`
    update mail_outbox
    set text_body = regexp_replace(text_body, ${LINK}, ${MARKER}, 'g'),
        html_body = regexp_replace(html_body, ${LINK}, ${MARKER}, 'g')
    where text_body ~ ${LINK} or html_body ~ ${LINK}
  `.execute(db);
}
