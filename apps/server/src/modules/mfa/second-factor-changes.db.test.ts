import { LIMITS } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { buildUser } from "../../../test/factories.js";
import { enrolTotp, passwordStep, STEP_MS, verify } from "../../../test/second-factor.js";
import { useSmtpTestServer } from "../../../test/smtp-test-server.js";
import { loginAs, useTestApp } from "../../../test/test-app.js";
import { manualClock } from "../../lib/clock.js";

// Recovery codes, regeneration and an administrator's reset: each writes an audit row and
// mails the person (through a real SMTP server).

const clock = manualClock(new Date(Date.UTC(2026, 0, 12, 9, 0, 15)));
const smtp = useSmtpTestServer();
const t = useTestApp(() => ({ clock, mailer: smtp.mailer }));

async function auditOf(userId: number) {
  return t.db.selectFrom("audit_log").select(["action", "actor_id", "after"]).where("entity", "=", "user").where("entity_id", "=", String(userId)).orderBy("id").execute();
}
const mailTo = (email: string, subject: RegExp) => smtp.waitForMessage((m) => m.to.includes(email) && subject.test(m.subject));

describe("recovery codes", () => {
  it("each signs in once, in any case and spacing; its use is audited and mailed", async () => {
    const enrolled = await enrolTotp(t, await buildUser(t.db, { role: "admin" }), clock);
    await mailTo(enrolled.user.email, /now on/);
    const [first, second] = enrolled.recoveryCodes as [string, string];
    const res = await verify(t, await passwordStep(t, enrolled.user), ` ${first.toUpperCase()} `);
    expect(res.statusCode).toBe(200);
    expect(res.json().user.id).toBe(enrolled.user.id);
    expect((await verify(t, await passwordStep(t, enrolled.user), first)).statusCode).toBe(401);
    expect((await verify(t, await passwordStep(t, enrolled.user), second.replace("-", ""))).statusCode).toBe(200);

    const mail = await mailTo(enrolled.user.email, /recovery code was used/);
    expect(mail.text).toContain(`${LIMITS.mfaRecoveryCodeCount - 1} unused codes are left`);
    for (const code of enrolled.recoveryCodes) expect(mail.raw).not.toContain(code);
    const audit = await auditOf(enrolled.user.id);
    expect(audit.filter((a) => a.action === "mfa.recovery_code.used").map((a) => a.after)).toEqual([
      { recoveryCodesLeft: LIMITS.mfaRecoveryCodeCount - 1 },
      { recoveryCodesLeft: LIMITS.mfaRecoveryCodeCount - 2 },
    ]);
    expect(audit[0]).toMatchObject({ action: "mfa.totp.enrolled", actor_id: enrolled.user.id });
  });

  it("lets one of two parallel uses of the same recovery code through", async () => {
    const enrolled = await enrolTotp(t, await buildUser(t.db, { role: "admin" }), clock);
    const [a, b] = [await passwordStep(t, enrolled.user), await passwordStep(t, enrolled.user)];
    const code = enrolled.recoveryCodes[3] ?? "";
    const replies = await Promise.all([verify(t, a, code), verify(t, b, code)]);
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it("are made anew with a current code; the old ones stop working", async () => {
    const enrolled = await enrolTotp(t, await buildUser(t.db, { role: "school_user" }), clock);
    clock.advance(STEP_MS);
    const { headers } = { headers: { authorization: `Bearer ${(await verify(t, await passwordStep(t, enrolled.user), enrolled.codeAt())).json().token}` } };
    clock.advance(STEP_MS);
    expect((await t.app.inject({ method: "POST", url: "/api/auth/mfa/recovery-codes", headers, payload: { code: "000000" } })).statusCode).toBe(401);
    const res = await t.app.inject({ method: "POST", url: "/api/auth/mfa/recovery-codes", headers, payload: { code: enrolled.codeAt() } });
    expect(res.statusCode).toBe(200);
    const fresh: string[] = res.json().recoveryCodes;
    expect(fresh).toHaveLength(LIMITS.mfaRecoveryCodeCount);
    expect((await verify(t, await passwordStep(t, enrolled.user), enrolled.recoveryCodes[0] ?? "")).statusCode).toBe(401);
    expect((await verify(t, await passwordStep(t, enrolled.user), fresh[0] ?? "")).statusCode).toBe(200);
    await mailTo(enrolled.user.email, /New recovery codes/);
    expect((await auditOf(enrolled.user.id)).map((a) => a.action)).toContain("mfa.recovery_codes.regenerated");
  });
});

describe("an administrator's reset", () => {
  it("removes the factor, is audited with the admin as actor, and mails the person", async () => {
    const admin = await loginAs(t.app, await buildUser(t.db, { role: "admin" }));
    const enrolled = await enrolTotp(t, await buildUser(t.db, { role: "school_user" }), clock);
    const res = await t.app.inject({ method: "POST", url: `/api/users/${enrolled.user.id}/mfa/reset`, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const login = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { login: enrolled.user.username, password: enrolled.user.password } });
    expect(login.json().token).toBeTruthy();
    expect((await auditOf(enrolled.user.id)).at(-1)).toMatchObject({ action: "mfa.reset", actor_id: admin.user.id, after: { totp: false } });
    const mail = await mailTo(enrolled.user.email, /administrator reset two-step sign-in/);
    expect(mail.text).toContain("Set up two-step sign-in again");
  });

  it("never a super admin's unless by a super admin, never one's own, never by a non-admin", async () => {
    const admin = await loginAs(t.app, await buildUser(t.db, { role: "admin" }));
    const superAdmin = await loginAs(t.app, await buildUser(t.db, { role: "super_admin" }));
    const district = await loginAs(t.app, await buildUser(t.db, { role: "district_user" }));
    const target = await enrolTotp(t, await buildUser(t.db, { role: "super_admin" }), clock);
    const reset = (headers: { authorization: string }, id: number) => t.app.inject({ method: "POST", url: `/api/users/${id}/mfa/reset`, headers });

    const byAdmin = await reset(admin.headers, target.user.id);
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json().error).toBe("Only a super admin can manage a super admin account");
    expect((await reset(district.headers, target.user.id)).statusCode).toBe(403);
    expect((await reset(superAdmin.headers, superAdmin.user.id)).statusCode).toBe(403);
    expect((await reset(superAdmin.headers, 2_000_000_000)).statusCode).toBe(404);
    expect(await t.db.selectFrom("mfa_totp").select("user_id").where("user_id", "=", target.user.id).execute()).toHaveLength(1);
    expect((await reset(superAdmin.headers, target.user.id)).statusCode).toBe(200);
    expect(await t.db.selectFrom("mfa_totp").select("user_id").where("user_id", "=", target.user.id).execute()).toEqual([]);
  });
});

describe("turning it off oneself", () => {
  it("is audited and mailed", async () => {
    const enrolled = await enrolTotp(t, await buildUser(t.db, { role: "admin" }), clock);
    clock.advance(STEP_MS);
    const token = (await verify(t, await passwordStep(t, enrolled.user), enrolled.codeAt())).json().token;
    clock.advance(STEP_MS);
    const res = await t.app.inject({ method: "DELETE", url: "/api/auth/mfa/totp", headers: { authorization: `Bearer ${token}` }, payload: { code: enrolled.codeAt() } });
    expect(res.statusCode).toBe(200);
    expect((await auditOf(enrolled.user.id)).map((a) => a.action)).toEqual(["mfa.totp.enrolled", "mfa.totp.removed"]);
    await mailTo(enrolled.user.email, /turned off/);
  });
});
