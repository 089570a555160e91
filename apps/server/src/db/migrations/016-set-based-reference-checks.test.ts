import { type Kysely, sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCohort, buildSchool, buildStudent, buildTeam } from "../../../test/factories.js";
import { useTestApp } from "../../../test/test-app.js";
import type { Database } from "../schema.js";

// The references to cohorts, schools and teams are checked once per statement instead of by
// foreign keys (migration 016): each must still refuse a row naming a missing target, and
// the deletion or renumbering of a target something refers to, with SQLSTATE 23503.

const t = useTestApp();
const MISSING = 999_999;
let ids: { school: number; cohort: number; team: number; student: number };

beforeAll(async () => {
  const school = await buildSchool(t.db);
  const cohort = await buildCohort(t.db);
  const team = await buildTeam(t.db, { schoolId: school.id, cohortId: cohort.id });
  const student = await buildStudent(t.db, { schoolId: school.id });
  ids = { school: school.id, cohort: cohort.id, team: team.id, student: student.id };
});

/** Each reference: a statement writing rows that name the given target id. */
const WRITES: Array<{ name: string; target: "cohort" | "school" | "team"; insert(db: Kysely<Database>, id: number): Promise<unknown> }> = [
  {
    name: "attendance_records.cohort_id",
    target: "cohort",
    insert: (db, id) => sql`insert into attendance_records (student_id, cohort_id, school_id, week_number, date, meeting_type, status)
      values (${ids.student}, ${ids.cohort}, ${ids.school}, 1, '2025-01-06', 'mentor', 'present'),
             (${ids.student}, ${id}, ${ids.school}, 1, '2025-01-07', 'mentor', 'present')`.execute(db),
  },
  {
    name: "attendance_records.school_id",
    target: "school",
    insert: (db, id) => sql`insert into attendance_records (student_id, cohort_id, school_id, week_number, date, meeting_type, status)
      values (${ids.student}, ${ids.cohort}, ${id}, 1, '2025-01-08', 'advisor', 'late')`.execute(db),
  },
  {
    name: "weekly_data.cohort_id",
    target: "cohort",
    insert: (db, id) => sql`insert into weekly_data (student_id, cohort_id, week_number) values (${ids.student}, ${id}, 2)`.execute(db),
  },
  {
    name: "student_cohorts.cohort_id",
    target: "cohort",
    insert: (db, id) => sql`insert into student_cohorts (student_id, cohort_id) values (${ids.student}, ${id})`.execute(db),
  },
  {
    name: "student_teams.team_id",
    target: "team",
    insert: (db, id) => sql`insert into student_teams (student_id, team_id) values (${ids.student}, ${id})`.execute(db),
  },
];

const codeOf = (error: unknown) => (error as { code?: string }).code;
const count = async (table: string) => (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(t.db)).rows[0]?.n;

describe("set-based reference checks", () => {
  for (const write of WRITES) {
    const table = write.name.split(".")[0] as string;
    it(`${write.name}: refuses a row naming a missing ${write.target} (23503), writes none of the statement's rows`, async () => {
      const before = await count(table);
      const error = await write.insert(t.db, MISSING).then(
        () => null,
        (e: unknown) => e,
      );
      expect(codeOf(error), String(error)).toBe("23503");
      expect(String((error as Error).message)).toContain(`key (${MISSING}) is not present`);
      expect(await count(table)).toBe(before);
    });

    it(`${write.name}: takes a row naming an existing ${write.target}, and refuses an update to a missing one`, async () => {
      await t.db.transaction().execute(async (trx) => {
        await write.insert(trx, ids[write.target]);
        const column = write.name.split(".")[1] as string;
        const error = await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${MISSING} where student_id = ${ids.student}`
          .execute(trx)
          .then(
            () => null,
            (e: unknown) => e,
          );
        expect(codeOf(error), String(error)).toBe("23503");
        throw new Rollback();
      }).catch((e: unknown) => {
        if (!(e instanceof Rollback)) throw e;
      });
    });
  }

  it("refuses deleting or renumbering a cohort, school or team something refers to, and deletes one nothing refers to", async () => {
    // Each target is referred to only through a reference the migration checks (no team of the
    // cohort, no team or student at the school), so no remaining foreign key could refuse instead.
    const cohort = await buildCohort(t.db);
    const team = await buildTeam(t.db, { schoolId: ids.school, cohortId: ids.cohort });
    await buildStudent(t.db, { schoolId: ids.school, cohortIds: [cohort.id], teams: [team.id] });
    const school = await buildSchool(t.db);
    const student = await buildStudent(t.db, { schoolId: ids.school });
    await sql`insert into attendance_records (student_id, cohort_id, school_id, week_number, date, meeting_type, status)
      values (${student.id}, ${ids.cohort}, ${school.id}, 1, '2025-01-06', 'mentor', 'present')`.execute(t.db);
    const refused = (statement: Promise<unknown>) => statement.then(() => null, (e: unknown) => e);
    for (const [table, id] of [["cohorts", cohort.id], ["teams", team.id], ["schools", school.id]] as const) {
      const deleted = await refused(sql`delete from ${sql.table(table)} where id = ${id}`.execute(t.db));
      expect(codeOf(deleted), `${table}: ${String(deleted)}`).toBe("23503");
      expect(String((deleted as Error).message)).toContain(`row ${id} of table "${table}" is still referenced`);
      const renumbered = await refused(sql`update ${sql.table(table)} set id = ${MISSING} where id = ${id}`.execute(t.db));
      expect(codeOf(renumbered), `${table}: ${String(renumbered)}`).toBe("23503");
    }

    const unused = await buildCohort(t.db);
    await sql`delete from cohorts where id = ${unused.id}`.execute(t.db);
    expect(await t.db.selectFrom("cohorts").select("id").where("id", "=", unused.id).execute()).toEqual([]);
  });
});

class Rollback extends Error {}
