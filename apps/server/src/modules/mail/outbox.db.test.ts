import { describe, expect, it } from "vitest";
import { buildUser } from "../../../test/factories.js";
import { loginAs, useSignedIn, useTestApp } from "../../../test/test-app.js";
import { WITHHELD_LINK } from "../../lib/mailer.js";

const t = useTestApp();
const superAdmin = useSignedIn(t, { role: "super_admin" });

const outbox = (query: string, headers: Record<string, string> = superAdmin.headers) =>
  t.app.inject({ method: "GET", url: `/api/mail/outbox${query}`, headers });

describe("GET /api/mail/outbox", () => {
  it("lists kept mail newest first, with paging", async () => {
    for (const n of [1, 2, 3]) {
      await t.ctx.mailer.send({ to: `person${n}@example.test`, subject: `Subject ${n}`, text: `Body ${n}` });
    }
    const res = await outbox("");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(3);
    expect(body.data.map((m: { subject: string }) => m.subject)).toEqual(["Subject 3", "Subject 2", "Subject 1"]);
    expect(body.data[0]).toMatchObject({ to_address: "person3@example.test", text_body: "Body 3", sent_at: null });
    expect(Number.isNaN(Date.parse(body.data[0].created_at))).toBe(false);

    const page = (await outbox("?limit=1&offset=1")).json();
    expect(page.total).toBe(3);
    expect(page.data.map((m: { subject: string }) => m.subject)).toEqual(["Subject 2"]);
  });

  it("is for super admins only: admins, who may send reset links, may not read them", async () => {
    expect((await outbox("", superAdmin.headers)).statusCode).toBe(200);
    const admin = await loginAs(t.app, await buildUser(t.db, { role: "admin" }));
    const refused = await outbox("", admin.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("FORBIDDEN");
    const schoolUser = await loginAs(t.app, await buildUser(t.db, { role: "school_user" }));
    expect((await outbox("", schoolUser.headers)).statusCode).toBe(403);
    const district = await loginAs(t.app, await buildUser(t.db, { role: "district_user" }));
    expect((await outbox("", district.headers)).statusCode).toBe(403);
    expect((await outbox("", {})).statusCode).toBe(401);
  });

  it("keeps a mail's one-time links out of the stored and returned text", async () => {
    const link = "https://tally.example.org/set-password#token=s3cr3t-Token_value-0123456789abcdefghijklm";
    await t.ctx.mailer.send({
      to: "holder@example.test",
      subject: "Withheld",
      text: `Open this:\n\n${link}\n\nThanks`,
      html: `<a href="${link}">reset</a>`,
      secrets: [link],
    });
    // A link the caller forgot to name is withheld too.
    await t.ctx.mailer.send({
      to: "holder@example.test",
      subject: "Unnamed",
      text: "Old style: http://localhost:3000/verify?token=AbC-123_xyz and https://x.test/set-password?token=Q",
    });
    const stored = await t.db.selectFrom("mail_outbox").selectAll().where("to_address", "=", "holder@example.test").execute();
    expect(stored).toHaveLength(2);
    const withheld = stored.find((m) => m.subject === "Withheld")!;
    expect(withheld.text_body).toBe(`Open this:\n\n${WITHHELD_LINK}\n\nThanks`);
    expect(withheld.html_body).not.toContain("s3cr3t");
    const unnamed = stored.find((m) => m.subject === "Unnamed")!;
    expect(unnamed.text_body).toBe(`Old style: ${WITHHELD_LINK} and ${WITHHELD_LINK}`);

    const body = (await outbox("?limit=200")).body;
    expect(body).toContain(WITHHELD_LINK);
    for (const secret of ["s3cr3t", "AbC-123_xyz", "token="]) expect(body).not.toContain(secret);
  });

  it("answers bad paging with 400", async () => {
    for (const q of ["?limit=0", "?limit=abc", "?offset=-1", "?limit=100000"]) {
      expect((await outbox(q)).statusCode, q).toBe(400);
    }
  });
});
