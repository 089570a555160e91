import { AUDIT_CSV_COLUMNS, auditListResponseSchema } from "@tally/contract";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { buildCohort, buildSchool, buildStudent, buildUser } from "../../../test/factories.js";
import { formulaCells, readAsSpreadsheet } from "../../../test/spreadsheet-reading.js";
import { caller, useSignedIn, useTestApp } from "../../../test/test-app.js";
import { insertAuditEntry } from "./audit.repository.js";
import { type AuditEntry, listChanges, recordChange } from "./audit.service.js";

const t = useTestApp();
const call = caller(t);
const superAdmin = useSignedIn(t, { role: "super_admin" });
const admin = useSignedIn(t, { role: "admin" });

const day = (iso: string) => new Date(`${iso}T12:00:00Z`);

/** A small known log: two actors over three days, one cell that would start a formula. */
async function seedLog() {
  const alice = await buildUser(t.db, { role: "admin", username: "alice.audit" });
  const bob = await buildUser(t.db, { role: "admin", username: "bob.audit" });
  const entries: AuditEntry[] = [
    { actorId: alice.id, action: "school.created", entity: "school", entityId: 1, before: null, after: { name: "=HYPERLINK(\"x\")" }, at: day("2026-03-01") },
    { actorId: bob.id, action: "school.updated", entity: "school", entityId: 1, before: { name: "A" }, after: { name: "B" }, at: day("2026-03-02") },
    { actorId: alice.id, action: "cohort.created", entity: "cohort", entityId: 9, before: null, after: { name: "C" }, at: day("2026-03-03") },
  ];
  for (const e of entries) await recordChange(t.db, { ...e, clientAddress: "192.0.2.1" });
  return { alice, bob };
}
const seeded = seedLogOnce();
function seedLogOnce() {
  let done: ReturnType<typeof seedLog> | undefined;
  return () => (done ??= seedLog());
}

const list = (query = "") => call("GET", `/api/audit${query}`, superAdmin.headers);
const inMarch = "from=2026-03-01&to=2026-03-31";

describe("GET /api/audit", () => {
  it("lists entries newest first with who, from where, what, before and after", async () => {
    const { alice, bob } = await seeded();
    const res = await list(`?${inMarch}`);
    expect(res.statusCode).toBe(200);
    const body = auditListResponseSchema.parse(res.json());
    expect(body.count).toBe(3);
    expect(body.rows.map((r) => [r.action, r.actorName])).toEqual([
      ["cohort.created", alice.username],
      ["school.updated", bob.username],
      ["school.created", alice.username],
    ]);
    expect(body.rows[1]).toMatchObject({ clientAddress: "192.0.2.1", entity: "school", entityId: "1", before: { name: "A" }, after: { name: "B" } });
    expect(body.choices.actors.map((a) => a.name)).toEqual(expect.arrayContaining([alice.username, bob.username]));
    expect(body.choices.actions).toEqual(expect.arrayContaining(["school.created", "cohort.created"]));
  });

  it("names what changed and the schools and cohorts its values refer to, instead of bare ids", async () => {
    const school = await buildSchool(t.db, { name: "Riverside Named School" });
    const cohort = await buildCohort(t.db, { name: "Named Cohort 2026" });
    const oak = await buildUser(t.db, { role: "school_user", username: "oak.named", schoolId: school.id });
    const student = await buildStudent(t.db, { schoolId: school.id, firstName: "Dmitri", lastName: "Named" });
    const at = day("2026-05-01");
    const entries: AuditEntry[] = [
      { actorId: null, action: "user.school.changed", entity: "user", entityId: oak.id, before: { school_id: null }, after: { school_id: school.id }, at },
      { actorId: null, action: "school.updated", entity: "school", entityId: school.id, before: { name: "A" }, after: { name: "B" }, at },
      { actorId: null, action: "cohort.updated", entity: "cohort", entityId: cohort.id, before: null, after: null, at },
      { actorId: null, action: "student.updated", entity: "student", entityId: student.id, before: null, after: null, at },
      { actorId: null, action: "import.undone", entity: "import_batch", entityId: 999_999, before: { cohortId: cohort.id, week: 4 }, after: null, at },
      { actorId: null, action: "update", entity: "cohort_visibility", entityId: null, before: [{ cohort_id: cohort.id, school_id: school.id, is_visible: true }], after: null, at },
      { actorId: null, action: "user.updated", entity: "user", entityId: 987_654, before: null, after: null, at },
    ];
    for (const e of entries) await recordChange(t.db, e);
    const res = await list("?from=2026-05-01&to=2026-05-01");
    expect(res.statusCode, res.body).toBe(200);
    const body = auditListResponseSchema.parse(res.json());
    expect(body.rows.map((r) => [r.action, r.entityName]).toReversed()).toEqual([
      ["user.school.changed", "oak.named"],
      ["school.updated", "Riverside Named School"],
      ["cohort.updated", "Named Cohort 2026"],
      ["student.updated", "Dmitri Named"],
      // The batch is gone after an undo; its week and cohort come from the entry itself.
      ["import.undone", "Week 4 of Named Cohort 2026"],
      ["update", null],
      // An account deleted since has no name.
      ["user.updated", null],
    ]);
    expect(body.names.schools).toEqual({ [String(school.id)]: "Riverside Named School" });
    expect(body.names.cohorts).toEqual({ [String(cohort.id)]: "Named Cohort 2026" });
  });

  it("filters by who, by action, by entity and by date range (whole days, both ends included)", async () => {
    const { alice } = await seeded();
    const actions = async (q: string) => auditListResponseSchema.parse((await list(`?${q}`)).json()).rows.map((r) => r.action);
    expect(await actions(`actorId=${alice.id}&${inMarch}`)).toEqual(["cohort.created", "school.created"]);
    expect(await actions(`action=school.updated&${inMarch}`)).toEqual(["school.updated"]);
    expect(await actions(`entity=school&${inMarch}`)).toEqual(["school.updated", "school.created"]);
    expect(await actions("from=2026-03-02&to=2026-03-02")).toEqual(["school.updated"]);
    expect(await actions("from=2026-03-02&to=2026-03-03")).toEqual(["cohort.created", "school.updated"]);
  });

  it("pages with limit and offset, counting every match", async () => {
    await seeded();
    const page = auditListResponseSchema.parse((await list(`?${inMarch}&limit=1&offset=1`)).json());
    expect(page.count).toBe(3);
    expect(page.rows.map((r) => r.action)).toEqual(["school.updated"]);
  });

  it("refuses bad filters with 400 and a clear message", async () => {
    for (const q of ["?from=2026-02-30", "?from=2026-03-05&to=2026-03-01", "?limit=0", "?limit=201", "?actorId=abc", `?action=${"x".repeat(101)}`]) {
      const res = await list(q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error, q).toBeTruthy();
    }
  });

  it("is for super admins only: 401 without a session, 403 for an admin", async () => {
    expect((await call("GET", "/api/audit")).statusCode).toBe(401);
    expect((await call("GET", "/api/audit", admin.headers)).statusCode).toBe(403);
    expect((await call("GET", "/api/audit/export.csv")).statusCode).toBe(401);
    expect((await call("GET", "/api/audit/export.csv", admin.headers)).statusCode).toBe(403);
  });
});

describe("GET /api/audit/export.csv", () => {
  it("downloads the filtered log, formula-looking cells defused", async () => {
    const { bob } = await seeded();
    const res = await call("GET", `/api/audit/export.csv?${inMarch}`, superAdmin.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="audit-log.csv"');
    const lines = res.body.replace(/^\uFEFF/, "").trimEnd().split("\r\n");
    expect(lines[0]).toBe(AUDIT_CSV_COLUMNS.join(","));
    expect(lines).toHaveLength(4);
    expect(lines[2]).toBe(`2026-03-02T12:00:00.000Z,${bob.username},192.0.2.1,school.updated,school,1,"{""name"":""A""}","{""name"":""B""}"`);
    expect(lines[3]).toContain("school.created");
  });

  it("puts an apostrophe before a cell that starts with = + - @ tab or CR", async () => {
    const sneaky = await buildUser(t.db, { role: "admin", username: "=cmd|calc" });
    for (const [i, action] of ["=1+1", "+SUM(A1)", "-A1+1", "@x", "\tx", "\rx"].entries()) {
      // Written raw: the modules record only the contract's codes, but any text in the log must export safely.
      await insertAuditEntry(t.db, { actorId: sneaky.id, action, entity: "x", entityId: i, before: null, after: null, at: day("2026-04-01") });
    }
    const res = await call("GET", `/api/audit/export.csv?actorId=${sneaky.id}`, superAdmin.headers);
    const rows: string[][] = parse(res.body, { bom: true }).slice(1);
    expect(rows.map((r) => [r[1], r[3]])).toEqual(
      ["=1+1", "+SUM(A1)", "-A1+1", "@x", "\tx", "\rx"].toReversed().map((action) => ["'=cmd|calc", `'${action}`]),
    );
  });

  it("starts no formula when read back with `;` as the separator; JSON cells stay JSON", async () => {
    const sly = await buildUser(t.db, { role: "admin", username: "sly;=cmd|calc" });
    const after = { name: "x;=HYPERLINK(\"http://evil.test\")", ids: [1, 2], note: "a;\"=1+1\"" };
    await insertAuditEntry(t.db, { actorId: sly.id, action: "a;-1+1", entity: "x;@y", entityId: "1;+2", before: null, after, at: day("2026-04-02") });
    const res = await call("GET", `/api/audit/export.csv?actorId=${sly.id}`, superAdmin.headers);
    expect(formulaCells(readAsSpreadsheet(res.body, ";"))).toEqual([]);
    const [, row] = readAsSpreadsheet(res.body, ",");
    expect(row?.slice(1, 6)).toEqual(["sly;'=cmd|calc", "", "a;'-1+1", "x;'@y", "1;'+2"]);
    expect(JSON.parse(row?.[7] ?? "")).toEqual({ ...after, name: "x;'=HYPERLINK(\"http://evil.test\")" });
    // In JSON the quote after `;` is escaped (\"), which no spreadsheet reads as a formula.
    expect(res.body).toContain('a;\\""=1+1');
  });

  it("exports more rows than one page of the database read", async () => {
    const many = await buildUser(t.db, { role: "admin" });
    const base = day("2026-05-01").getTime();
    await t.db
      .insertInto("audit_log")
      .values(Array.from({ length: 1_203 }, (_, i) => ({ at: new Date(base + Math.floor(i / 3) * 1000), actor_id: many.id, action: `bulk.${i}`, entity: "bulk", entity_id: String(i), before: "null", after: "null", client_address: null })))
      .execute();
    const res = await call("GET", `/api/audit/export.csv?actorId=${many.id}`, superAdmin.headers);
    const actions = res.body.trimEnd().split("\r\n").slice(1).map((l) => l.split(",")[3]);
    expect(actions).toHaveLength(1_203);
    expect(new Set(actions).size).toBe(1_203);
  });
});

describe("audit rows cannot be changed or deleted through the API", () => {
  it("answers PUT, PATCH and DELETE with 404 or 405 and leaves every row as it was", async () => {
    await seeded();
    const before = await listChanges(t.db, { limit: 10_000 });
    const id = before[0]?.id ?? 1;
    for (const method of ["PUT", "PATCH", "DELETE", "POST"] as const) {
      for (const url of ["/api/audit", `/api/audit/${id}`, "/api/audit/export.csv"]) {
        const res = await t.app.inject({ method, url, headers: superAdmin.headers, payload: method === "DELETE" ? undefined : { action: "erased" } });
        expect([404, 405], `${method} ${url}`).toContain(res.statusCode);
      }
    }
    expect(await listChanges(t.db, { limit: 10_000 })).toEqual(before);
  });
});
