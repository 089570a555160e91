import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../../../test/test-app.js";
import { WITHHELD_LINK } from "../../lib/mailer.js";
import { migrate006 } from "./006-outbox-withhold-links.js";

const database = useTestDatabase();

describe("migration 006-outbox-withhold-links", () => {
  it("is applied by migrateToLatest", async () => {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(database.db);
    expect(rows.map((r) => r.name)).toContain("006-outbox-withhold-links");
  });

  it("replaces the live links of mail stored before with the marker, and leaves the rest alone", async () => {
    const db = database.db;
    const reset = "http://localhost:3000/set-password?token=Zm9vYmFyLWJhei0xMjM0NTY3ODkwLWFiY2RlZmdoaWpr";
    const verify = "https://tally.example.org/verify?token=b2xkLXZlcmlmeS10b2tlbi0xMjM0NTY3ODkwYWJjZGVm";
    const fragment = "https://tally.example.org/set-password#token=ZnJhZ21lbnQtdG9rZW4tMTIzNDU2Nzg5MGFiY2RlZg";
    const plain = "Your weekly report is ready.\nSee https://tally.example.org/dashboard?week=3 for details.";
    const inserted = await db
      .insertInto("mail_outbox")
      .values([
        { to_address: "a@example.test", subject: "Reset", text_body: `Choose a new password here:\n\n${reset}\n\nBye`, html_body: null },
        { to_address: "b@example.test", subject: "Verify", text_body: `Confirm:\n${verify}`, html_body: `<a href="${verify}">go</a>` },
        { to_address: "c@example.test", subject: "Fragment", text_body: `Here: ${fragment}.`, html_body: null },
        { to_address: "d@example.test", subject: "Plain", text_body: plain, html_body: null },
      ])
      .returning(["id", "subject"])
      .execute();

    await migrate006(db as Kysely<unknown>);

    const rows = await db
      .selectFrom("mail_outbox")
      .select(["subject", "text_body", "html_body"])
      .where("id", "in", inserted.map((r) => r.id))
      .execute();
    const bySubject = new Map(rows.map((r) => [r.subject, r]));
    expect(bySubject.get("Reset")?.text_body).toBe(`Choose a new password here:\n\n${WITHHELD_LINK}\n\nBye`);
    expect(bySubject.get("Verify")?.text_body).toBe(`Confirm:\n${WITHHELD_LINK}`);
    expect(bySubject.get("Verify")?.html_body).toBe(`<a href="${WITHHELD_LINK}">go</a>`);
    expect(bySubject.get("Fragment")?.text_body).toBe(`Here: ${WITHHELD_LINK}.`);
    expect(bySubject.get("Plain")?.text_body).toBe(plain);
    for (const row of rows) expect(`${row.text_body} ${row.html_body ?? ""}`).not.toMatch(/token=/);
  });
});
