import { type FlagCode, flag, flagText, weekLastDay } from "@tally/contract";
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Database } from "../schema.js";
import * as words from "./demo-words.js";
import { addDays } from "../../lib/iso-date.js";

export interface LargeSeedOptions {
  students: number;
  /** Default 40, fewer for small runs (at least about 100 students per school). */
  schools?: number;
  cohorts?: number;
  /** Weeks of attendance and weekly data per cohort. */
  weeks?: number;
  studentsPerTeam?: number;
  /** Called before each step, for a progress line. */
  onProgress?: (step: string) => void;
}

export interface LargeSeedSummary {
  schools: number;
  cohorts: number;
  teams: number;
  students: number;
  attendanceRecords: number;
  weeklyData: number;
  seconds: number;
}

export class LargeSeedExistsError extends Error {
  constructor(school: string) {
    super(`Large synthetic data is already loaded here (school "${school}" exists). Use a fresh DATA_DIR or database.`);
    this.name = "LargeSeedExistsError";
  }
}

const PLACES = [
  "Ashford", "Bayside", "Brighton", "Clearwater", "Elmwood", "Fairview", "Glenwood", "Hampton", "Ironwood", "Kingsley",
  "Linden", "Meadowbrook", "Newport", "Parkside", "Redwood", "Stonebridge", "Summerville", "Thornton", "Valley View", "Willow Creek",
];
const SCHOOL_KINDS = ["High School", "Academy"];
const DISTRICTS = 8;
/** Students who change team do so at the start of this week. */
const SWITCH_WEEK = 5;
/** Cohort i starts four weeks after the one before: all of them in the past of a bench run. */
const cohortStart = (i: number) => addDays("2026-01-05", i * 28);
const ACCENTED = "áàâäãåéèêëíìîïóòôöõøúùûüñçÁÉÍÓÚÑÖÜØ";
const PLAIN = "aaaaaaeeeeiiiiooooooouuuuncAEIOUNOUO";

/**
 * Adds a large synthetic data set for benchmarks: by default 40 schools, 4 ten-week cohorts,
 * teams of about 12 and, for 50,000 students, a million attendance rows and half a million
 * weekly rows. Rows are generated inside the database with set-based SQL: statuses, names and
 * texts come from a hash of the student's ordinal, so the same options on the same database
 * give the same data. Runs in its own transaction, so pass a Kysely instance, not a transaction.
 */
export async function seedLarge(db: Kysely<Database>, opts: LargeSeedOptions): Promise<LargeSeedSummary> {
  const started = performance.now();
  const students = Math.floor(opts.students);
  if (!(students >= 1)) throw new RangeError("students must be at least 1");
  const schoolCount = Math.max(1, Math.min(opts.schools ?? 40, Math.ceil(students / 100)));
  const cohortCount = Math.max(1, opts.cohorts ?? 4);
  const weeks = Math.max(1, Math.min(104, opts.weeks ?? 10));
  const teamsPerGroup = Math.max(1, Math.round(students / (schoolCount * cohortCount * (opts.studentsPerTeam ?? 12))));
  const progress = opts.onProgress ?? (() => {});

  const summary = await db.transaction().execute(async (trx) => {
    const schoolNames = Array.from({ length: schoolCount }, (_, i) => schoolName(i));
    const taken = await trx
      .selectFrom("schools")
      .select("name")
      .where((eb) => eb(eb.fn("lower", ["name"]), "in", schoolNames.map((n) => n.toLowerCase())))
      .executeTakeFirst();
    if (taken) throw new LargeSeedExistsError(taken.name);

    progress(`schools, cohorts and teams (${schoolCount} schools, ${cohortCount} cohorts, ${teamsPerGroup} teams each)`);
    const schools = await trx
      .insertInto("schools")
      .values(schoolNames.map((name, i) => ({ name, district: `${PLACES[i % DISTRICTS]} County Schools` })))
      .returning("id")
      .execute();
    const cohorts = await trx
      .insertInto("cohorts")
      .values(
        Array.from({ length: cohortCount }, (_, i) => {
          const start = cohortStart(i);
          return {
            name: `Benchmark Cohort ${i + 1} (2026)`,
            program_type: "Projects",
            start_date: start,
            end_date: weekLastDay(start, weeks),
            total_expected_hours: weeks * 15,
          };
        }),
      )
      .returning("id")
      .execute();
    const schoolIds = json(schools.map((s) => s.id));
    const cohortIds = json(cohorts.map((c) => c.id));

    const { rows: bounds } = await sql<{ team: number; student: number }>`
      select coalesce((select max(id) from teams), 0) as team, coalesce((select max(id) from students), 0) as student`.execute(trx);
    const before = bounds[0] ?? { team: 0, student: 0 };

    const teamSalt = (k: number) => sql`s.ord * 7919 + c.ord * 104729 + t * 31 + ${lit(k)}`;
    await sql`
      insert into teams (name, school_id, cohort_id, organization_description, project_description, start_date)
      select ${pick(words.TEAM_ADJECTIVES, teamSalt(1))} || ' ' || ${pick(words.TEAM_NOUNS, teamSalt(2))},
             s.id, c.id,
             org.name || ' is a ' || org.kind || ' that ' || org.mission || '.',
             ${pick(words.PROJECT_VERBS, teamSalt(4))} || ' ' || ${pick(words.PROJECT_ARTIFACTS, teamSalt(5))}
               || ' to help ' || org.name || ' ' || ${pick(words.PROJECT_GOALS, teamSalt(6))} || '.',
             c.start_date
        from (select value::int as id, ordinality as ord from jsonb_array_elements_text(${schoolIds}::jsonb) with ordinality) s
       cross join (select j.value::int as id, j.ordinality as ord, co.start_date
                     from jsonb_array_elements_text(${cohortIds}::jsonb) with ordinality j
                     join cohorts co on co.id = j.value::int) c
       cross join generate_series(1, ${lit(teamsPerGroup)}) t
       cross join lateral (
         select ${pick(words.ORG_PLACES, teamSalt(3))} || ' ' || (k->>'name') as name, k->>'kind' as kind, k->>'mission' as mission
           from (select ${json(words.ORG_KINDS)}::jsonb -> ${hash(teamSalt(7), words.ORG_KINDS.length)}::int as k) o
       ) org
       order by s.ord, c.ord, t`.execute(trx);

    progress(`${students} students`);
    // Each student is created when enrolled, as an import would: the week before the cohort
    // starts (the memberships' joined_at below). Dated on the day of the seed instead, nothing
    // would have existed "last week" and the dashboard's week-over-week figures would cost nothing.
    const enrolled = json(cohorts.map((_, i) => `${addDays(cohortStart(i), -7)}T09:00:00Z`));
    await sql`
      insert into students (first_name, last_name, email, school_id, benefit_assignment_id, created_at)
      select fn, ln,
             regexp_replace(lower(translate(fn, ${ACCENTED}, ${PLAIN})), '[^a-z0-9]', '', 'g') || '.' ||
               regexp_replace(lower(translate(ln, ${ACCENTED}, ${PLAIN})), '[^a-z0-9]', '', 'g') || '.' || g || '@synthetic.tally.demo',
             (${schoolIds}::jsonb ->> ((g - 1) % ${lit(schoolCount)})::int)::int,
             'BA-' || (2000000 + g),
             (${enrolled}::jsonb ->> (((g - 1) / ${lit(schoolCount)}) % ${lit(cohortCount)})::int)::timestamptz
        from (select g, ${pick(words.FIRST_NAMES, sql`g * 3 + 1`)} as fn, ${pick(words.LAST_NAMES, sql`g * 3 + 2`)} as ln
                from generate_series(1, ${lit(students)}) g) x
       order by g`.execute(trx);

    // Who is where: cohort and team from the student's ordinal, attendance rates from hashes.
    // Stored in student order, which the inserts below rely on for speed (not for correctness).
    await sql`
      create temp table large_seed_plan on commit drop as
      with st as (select id, school_id, row_number() over (order by id) as n from students where id > ${lit(before.student)}),
           sc as (select value::int as school_id, ordinality - 1 as si from jsonb_array_elements_text(${schoolIds}::jsonb) with ordinality),
           co as (select value::int as cohort_id, ordinality - 1 as ci from jsonb_array_elements_text(${cohortIds}::jsonb) with ordinality),
           tm as (select id, school_id, cohort_id, row_number() over (partition by school_id, cohort_id order by id) - 1 as ti
                    from teams where id > ${lit(before.team)})
      select st.id as student_id, st.n, st.school_id, co.cohort_id, c.start_date,
             c.total_expected_hours / ${lit(weeks)} as expected_hours,
             t.id as team_id, pt.id as prev_team_id,
             ${hash(sql`st.n * 11 + 5`, 1000)} < 25 as struggling,
             least(990, 880 + ${hash(sql`sc.si * 13 + 1`, 80)} + ${hash(sql`st.n * 17 + 9`, 61)} - 30) as rate
        from st
        join sc on sc.school_id = st.school_id
        join co on co.ci = ((st.n - 1) / ${lit(schoolCount)}) % ${lit(cohortCount)}
        join cohorts c on c.id = co.cohort_id
        join tm t on t.school_id = st.school_id and t.cohort_id = co.cohort_id
                 and t.ti = ((st.n - 1) / ${lit(schoolCount * cohortCount)}) % ${lit(teamsPerGroup)}
        left join tm pt on ${lit(teamsPerGroup)} > 1 and ${hash(sql`st.n * 7 + 3`, 100)} < 8
                 and pt.school_id = st.school_id and pt.cohort_id = co.cohort_id and pt.ti = (t.ti + 1) % ${lit(teamsPerGroup)}
       order by st.id`.execute(trx);

    progress("memberships");
    await sql`
      insert into student_cohorts (student_id, cohort_id, joined_at)
      select student_id, cohort_id, ((start_date - 7)::text || 'T09:00:00Z')::timestamptz from large_seed_plan`.execute(trx);
    await sql`
      insert into student_teams (student_id, team_id, joined_at)
      select student_id, prev_team_id, (start_date::text || 'T09:00:00Z')::timestamptz from large_seed_plan where prev_team_id is not null
      union all
      select student_id, team_id,
             ((start_date + case when prev_team_id is null then 0 else ${lit((SWITCH_WEEK - 1) * 7)} end)::text || 'T09:00:00Z')::timestamptz
        from large_seed_plan`.execute(trx);

    // One statement per table, read from the plan in student order (no sort needed), so the
    // indexes that lead with student_id mostly grow at their right edge. The summary trigger
    // runs once over the whole set. (On a busy 2-core machine this measured no slower than one statement per week, usually faster.)
    progress(`attendance (${students * weeks * 2} rows)`);
    await sql`
      insert into attendance_records (student_id, cohort_id, school_id, team_id, week_number, date, meeting_type, status)
      select p.student_id, p.cohort_id, p.school_id,
             case when p.prev_team_id is not null and wk.week < ${lit(SWITCH_WEEK)} then p.prev_team_id else p.team_id end,
             wk.week, p.start_date + (wk.week - 1) * 7 + case m.type when 'mentor' then 1 else 3 end,
             m.type, ${statusSql(sql`m.type`)}
        from large_seed_plan p
       cross join generate_series(1, ${lit(weeks)}) wk(week)
       cross join (values ('mentor'), ('advisor')) m(type)`.execute(trx);

    progress(`weekly data (${students * weeks} rows)`);
    const salt = (k: number) => sql`p.n * 131 + wk.week * 16 + ${lit(k)}`;
    // Flags in the order of the flag rules, agreeing with the attendance inserted above.
    await sql`
      insert into weekly_data (student_id, cohort_id, week_number, week_start, flags, reflection, advisor_notes, hours_reported)
      select student_id, cohort_id, week, start_date + (week - 1) * 7,
             case when progress < expected - 20 then ${flagSql("BEHIND_PROGRESS", sql`progress`, sql`expected`)} else '[]'::jsonb end
             || case when not reflected then ${fixedFlag(flag("NO_REFLECTION"))} else '[]'::jsonb end
             || case when hours < expected_hours / 2 then ${flagSql("LOW_HOURS", sql`hours`, sql`expected_hours`)} else '[]'::jsonb end
             || case when mentor = 'absent' then ${fixedFlag(flag("MISSED_MEETING", "mentor"))} else '[]'::jsonb end
             || case when advisor = 'absent' then ${fixedFlag(flag("MISSED_MEETING", "advisor"))} else '[]'::jsonb end,
             case when reflected then 'This week I ' || activity || '. ' || feeling || ' Next week I want to ' || goal || '.' end,
             note,
             hours
        from (select p.student_id, p.cohort_id, p.start_date, p.expected_hours, wk.week,
                     100.0 * wk.week / ${lit(weeks)} as expected,
                     ${statusSql(sql`'mentor'`)} as mentor,
                     ${statusSql(sql`'advisor'`)} as advisor,
                     ${hash(salt(1), 1000)} >= case when p.struggling then 500 else 70 end as reflected,
                     ${pick(words.REFLECTION_ACTIVITIES, salt(2))} as activity,
                     ${pick(words.REFLECTION_FEELINGS, salt(3))} as feeling,
                     ${pick(words.REFLECTION_GOALS, salt(4))} as goal,
                     case when ${hash(salt(5), 100)} < 25 then ${pick(words.ADVISOR_NOTES, salt(6))} end as note,
                     (round(p.expected_hours * case
                       when p.struggling then 0.15 + ${hash(salt(7), 500)} / 1000.0
                       when ${hash(salt(8), 100)} < 4 then 0.15 + ${hash(salt(9), 300)} / 1000.0
                       else 0.75 + ${hash(salt(10), 450)} / 1000.0 end * 2) / 2)::float8 as hours,
                     greatest(0, round(100.0 * wk.week / ${lit(weeks)} + case when p.struggling then -35 + ${hash(salt(11), 25)}
                       else -22 + ${hash(salt(12), 32)} end))::int as progress
                from large_seed_plan p
               cross join generate_series(1, ${lit(weeks)}) wk(week)) x`.execute(trx);
    return {
      schools: schools.length,
      cohorts: cohorts.length,
      teams: schoolCount * cohortCount * teamsPerGroup,
      students,
      attendanceRecords: students * weeks * 2,
      weeklyData: students * weeks,
    };
  });
  // Fresh statistics for sensible plans, and the visibility map set so index-only scans need
  // no heap visits: the embedded engine has no autovacuum to do either later.
  progress("vacuum and analyze");
  await sql`vacuum (analyze)`.execute(db);
  return { ...summary, seconds: (performance.now() - started) / 1000 };
}

/** Numbers go into the SQL text: as parameters their type would be guessed, sometimes as text. */
function lit(value: number): RawBuilder<number> {
  if (!Number.isFinite(value)) throw new RangeError(`not a number: ${value}`);
  return sql.lit(value);
}

function json(value: unknown): string {
  return JSON.stringify(value);
}

/** A well-mixed integer in [0, mod) from an integer expression, the same on every run. */
function hash(expr: RawBuilder<unknown>, mod: number): RawBuilder<number> {
  return sql<number>`((hashint8((${expr})::bigint)::bigint + 2147483648) % ${lit(mod)})`;
}

function pick(list: readonly string[], expr: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`(${json(list)}::jsonb ->> ${hash(expr, list.length)}::int)`;
}

/** Numbers as the flag texts write them (the contract's plainNumber): at most one decimal, no trailing zeros. */
function formatSql(expr: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`(round((${expr})::numeric, 1)::float8)::text`;
}

/** A flag whose text names no figure, as a one-item jsonb array. */
function fixedFlag(item: { code: FlagCode; text: string }): RawBuilder<unknown> {
  return sql`${json([item])}::jsonb`;
}

// Figures no real flag text holds: the contract's text is written with them, then each is
// replaced by its SQL expression, so the seed's texts are the contract's, made in the database.
const FIGURE_MARKS = [987_651, 987_652];

/** A flag whose text names figures, as a one-item jsonb array built in SQL from the contract's text. */
function flagSql(code: "BEHIND_PROGRESS" | "LOW_HOURS", ...figures: RawBuilder<unknown>[]): RawBuilder<unknown> {
  const [a, b] = FIGURE_MARKS as [number, number];
  const text = flagText[code](a, b);
  const pieces = text.split(new RegExp(`(${FIGURE_MARKS.join("|")})`));
  const parts = pieces.map((piece) => {
    const at = FIGURE_MARKS.indexOf(Number(piece));
    return at >= 0 && /^\d+$/.test(piece) ? formatSql(figures[at]!) : sql`${piece}::text`;
  });
  return sql`jsonb_build_array(jsonb_build_object('code', ${code}::text, 'text', ${sql.join(parts, sql` || `)}))`;
}

/**
 * A meeting's status for plan row p in week wk: mostly present at the student's rate, the rest split
 * between late and absent; struggling students mostly absent or late. Both inserts use it,
 * so that MISSED_MEETING flags agree with the attendance rows.
 */
function statusSql(meetingType: RawBuilder<unknown>): RawBuilder<string> {
  const r = hash(sql`p.n * 1009 + wk.week * 17 + case ${meetingType} when 'mentor' then 1 else 2 end`, 1000);
  return sql<string>`case
    when ${r} < case when p.struggling then 300 else p.rate end then 'present'
    when ${r} < case when p.struggling then 545 else p.rate + (1000 - p.rate) / 2 end then 'late'
    else 'absent' end`;
}

function schoolName(i: number): string {
  const base = `${PLACES[i % PLACES.length]} ${SCHOOL_KINDS[Math.floor(i / PLACES.length) % SCHOOL_KINDS.length]}`;
  const round = Math.floor(i / (PLACES.length * SCHOOL_KINDS.length));
  return round === 0 ? base : `${base} ${round + 1}`;
}
