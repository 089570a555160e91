import { beforeAll, describe, expect, it } from "vitest";
import { buildCohort, buildSchool, buildStudent, buildTeam, buildUser, type BuiltUser } from "../../../test/factories.js";
import { type LoggedIn, loginAs, useTestApp } from "../../../test/test-app.js";
import { type MailMessage, WITHHELD_LINK } from "../../lib/mailer.js";
import { settleBackgroundWork } from "./background-mail.js";

// Issue 16, point 1: with no SMTP server the reset mail of the super admin landed in the
// outbox, which an admin could read, link and all. Here an admin walks every GET route and
// tries every token-shaped string it was shown; none may set a password.

const t = useTestApp({ config: { appUrl: "https://tally.example.org" } });
let superAdmin: BuiltUser;
let admin: LoggedIn;
/** What the recipients would have received by e-mail (the real links). */
const delivered: MailMessage[] = [];

beforeAll(async () => {
  const outbox = t.ctx.mailer;
  t.ctx.mailer = {
    kind: outbox.kind,
    async send(message) {
      delivered.push(message);
      await outbox.send(message);
    },
  };

  // Something behind every :id, so the walk reads real records.
  const school = await buildSchool(t.db);
  const cohort = await buildCohort(t.db);
  const team = await buildTeam(t.db, { schoolId: school.id, cohortId: cohort.id });
  await buildStudent(t.db, { schoolId: school.id, cohortIds: [cohort.id], teams: [team.id] });
  await buildUser(t.db, { role: "school_user", schoolId: school.id });
  await buildUser(t.db, { role: "district_user", schoolIds: [school.id] });
  superAdmin = await buildUser(t.db, { role: "super_admin" });
  const adminUser = await buildUser(t.db, { role: "admin" });
  admin = await loginAs(t.app, adminUser);

  // The attack: anyone may ask for the super admin's reset mail.
  const forgot = await t.app.inject({
    method: "POST",
    url: "/api/auth/forgot-password",
    payload: { email: superAdmin.email },
  });
  expect(forgot.statusCode).toBe(200);
  // And the admin's own doings put more links in the outbox: a reset link and a new account's verification.
  const victim = await buildUser(t.db, { role: "school_user", schoolId: school.id });
  expect((await t.app.inject({ method: "POST", url: `/api/auth/request-reset/${victim.id}`, headers: admin.headers })).statusCode).toBe(200);
  const registered = await t.app.inject({
    method: "POST",
    url: "/api/auth/register",
    headers: admin.headers,
    payload: { username: "newcomer", email: "newcomer@example.test", role: "admin", password: "Newcomer-Pass-42" },
  });
  expect(registered.statusCode).toBe(201);
  await settleBackgroundWork(t.ctx);
});

const BASE64URL_43 = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;
const TOKEN_PARAM = /token=([^&\s"'<>#\\]+)/g;

/** Every string in `text` that could be a one-time token: 43 base64url characters, or a `token=` value. */
function tokenCandidates(text: string): Set<string> {
  const found = new Set<string>(text.match(BASE64URL_43) ?? []);
  for (const match of text.matchAll(TOKEN_PARAM)) {
    if (match[1]) found.add(decodeURIComponent(match[1]));
  }
  return found;
}

async function idsToTry(): Promise<number[]> {
  const tables = ["users", "students", "schools", "cohorts", "teams", "mail_outbox"] as const;
  const ids = new Set<number>();
  for (const table of tables) {
    for (const row of await t.db.selectFrom(table).select("id").execute()) ids.add(row.id);
  }
  return [...ids];
}

/** Every GET route under /api, each `:param` filled with every id in the database. */
async function urlsToWalk(): Promise<string[]> {
  const ids = await idsToTry();
  const urls = new Set<string>();
  for (const route of t.routes) {
    if (route.method !== "GET" || !route.url.startsWith("/api")) continue;
    if (!route.url.includes(":")) {
      urls.add(route.url);
      continue;
    }
    for (const id of ids) urls.add(route.url.replace(/:[A-Za-z]+/g, String(id)));
  }
  return [...urls];
}

/** The text of every reply (headers and body) the caller gets from the walk. */
async function walk(headers: Record<string, string>): Promise<{ urls: string[]; text: string }> {
  const urls = await urlsToWalk();
  const parts: string[] = [];
  for (const url of urls) {
    const res = await t.app.inject({ method: "GET", url, headers });
    parts.push(JSON.stringify(res.headers), res.body);
  }
  return { urls, text: parts.join("\n") };
}

const setPassword = (token: string) =>
  t.app.inject({ method: "POST", url: "/api/auth/set-password", payload: { token, password: "Taken-Over-Pass-99" } });

describe("one-time links are readable by their recipient only", () => {
  it("the recipients' mails carry live links, which the test's harvest would find", async () => {
    const resetMail = delivered.find((m) => m.to === superAdmin.email);
    expect(resetMail?.text).toMatch(/https:\/\/tally\.example\.org\/set-password#token=/);
    const candidates = [...tokenCandidates(resetMail?.text ?? "")];
    expect(candidates).toHaveLength(1);
    // Checked, not used: the link stays live for the walk below.
    const check = await t.app.inject({
      method: "POST",
      url: "/api/auth/verify-reset-token",
      payload: { token: candidates[0] },
    });
    expect(check.json()).toEqual({ valid: true });
  });

  it("as admin, no reply of any GET route holds a token that set-password accepts", async () => {
    const { urls, text } = await walk(admin.headers);
    // The walk reached the routes that matter: the outbox and the records behind :id.
    expect(urls).toContain("/api/mail/outbox");
    expect(urls.some((u) => /^\/api\/users\/\d+\/login-logs$/.test(u))).toBe(true);
    expect(urls.some((u) => /^\/api\/students\/\d+$/.test(u))).toBe(true);
    expect(urls.length).toBeGreaterThan(20);

    const candidates = tokenCandidates(text);
    for (const token of candidates) {
      const res = await setPassword(token);
      expect(res.statusCode, `set-password accepted a token read by an admin: ${token}`).toBe(400);
      expect(res.json().code).toBe("INVALID_TOKEN");
    }
    expect(text).not.toMatch(/set-password[?#]token=/);
    expect(text).not.toMatch(/verify[?#]token=/);
    // The super admin's password is unchanged.
    expect((await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { login: superAdmin.username, password: superAdmin.password } })).statusCode).toBe(200);
  });

  it("the admin may not read the outbox at all", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/mail/outbox", headers: admin.headers });
    expect(res.statusCode).toBe(403);
  });

  it("as super admin, the outbox holds the mails but not their links, and no reply holds a live token", async () => {
    const asSuper = await loginAs(t.app, superAdmin);
    const res = await t.app.inject({ method: "GET", url: "/api/mail/outbox?limit=200", headers: asSuper.headers });
    expect(res.statusCode).toBe(200);
    const mails = res.json().data as Array<{ to_address: string; subject: string; text_body: string }>;
    // The walk of every GET route above reads students in bulk, so a bulk-export alarm mail may be there too.
    const reset = mails.find((m) => m.to_address === superAdmin.email && m.subject === "Reset your Tally password");
    expect(reset).toBeDefined();
    expect(reset?.text_body).toContain(WITHHELD_LINK);
    expect(mails.find((m) => m.to_address === "newcomer@example.test")?.text_body).toContain(WITHHELD_LINK);
    expect(mails).toHaveLength(delivered.length);
    for (const mail of delivered) {
      for (const secret of mail.secrets ?? []) expect(res.body).not.toContain(secret);
    }

    const { text } = await walk(asSuper.headers);
    for (const token of tokenCandidates(text)) {
      expect((await setPassword(token)).statusCode, `set-password accepted ${token}`).toBe(400);
    }
  });
});
