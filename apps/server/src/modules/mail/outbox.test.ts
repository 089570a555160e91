import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUser, type LoggedIn, loginAs } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/test-app.js";

let t: TestApp;
let admin: LoggedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await loginAs(t.app, await buildUser(t.db, { role: "admin" }));
});
afterAll(async () => {
  await t?.close();
});

const outbox = (query: string, headers: Record<string, string> = admin.headers) =>
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

  it("is for admins only", async () => {
    const superAdmin = await loginAs(t.app, await buildUser(t.db, { role: "super_admin" }));
    expect((await outbox("", superAdmin.headers)).statusCode).toBe(200);
    const schoolUser = await loginAs(t.app, await buildUser(t.db, { role: "school_user" }));
    expect((await outbox("", schoolUser.headers)).statusCode).toBe(403);
    const district = await loginAs(t.app, await buildUser(t.db, { role: "district_user" }));
    expect((await outbox("", district.headers)).statusCode).toBe(403);
    expect((await outbox("", {})).statusCode).toBe(401);
  });

  it("answers bad paging with 400", async () => {
    for (const q of ["?limit=0", "?limit=abc", "?offset=-1", "?limit=100000"]) {
      expect((await outbox(q)).statusCode, q).toBe(400);
    }
  });
});
