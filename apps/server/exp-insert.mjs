import { PGlite } from "@electric-sql/pglite";
const db = await PGlite.create(process.argv[2], { startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=64MB"] });
const variant = process.argv[3] ?? "base";
const { rows: studs } = await db.query("select id, school_id from students order by id limit 25000");
const t = async (label, fn) => { const t0 = performance.now(); const r = await fn(); console.log(label, (performance.now() - t0).toFixed(0), "ms"); return r; };
for (let rep = 0; rep < 2; rep++) {
await db.exec("begin");
const { rows: [c] } = await db.query("insert into cohorts (name, program_type, start_date, end_date) values ('exp', 'Projects', '2027-09-01', '2027-12-01') returning id");
if (variant.includes("nofk")) {
  await db.exec("alter table attendance_records drop constraint attendance_records_student_id_fkey, drop constraint attendance_records_cohort_id_fkey, drop constraint attendance_records_school_id_fkey");
}
if (variant.includes("nostudfk")) await db.exec("alter table attendance_records drop constraint attendance_records_student_id_fkey");
if (variant.includes("nocsfk")) await db.exec("alter table attendance_records drop constraint attendance_records_cohort_id_fkey, drop constraint attendance_records_school_id_fkey");
if (variant.includes("replica")) await db.exec("set local session_replication_role = replica");
if (variant.includes("notrig")) await db.exec("alter table attendance_records disable trigger attendance_summary_on_insert");
if (variant.includes("noidx")) await db.exec("drop index attendance_student_cohort_idx");
const rows = [];
for (const s of studs) for (const [d, m] of [["2027-09-08", "mentor"], ["2027-09-09", "advisor"]]) rows.push({ student_id: s.id, cohort_id: c.id, school_id: s.school_id, team_id: 0, week_number: 1, date: d, meeting_type: m, status: "present" });
const chunk = Number(process.env.CHUNK ?? 2000);
await t(`insert attendance ${variant} chunk ${chunk}`, async () => {
  for (let i = 0; i < rows.length; i += chunk) {
    await db.query(`insert into attendance_records (student_id, cohort_id, school_id, team_id, week_number, date, meeting_type, status, created_at, updated_at)
      select student_id, cohort_id, school_id, team_id, week_number, date, meeting_type, status, now(), now()
      from json_to_recordset($1) as x(student_id int, cohort_id int, school_id int, team_id int, week_number int, date date, meeting_type text, status text) returning id`, [JSON.stringify(rows.slice(i, i + chunk))]);
  }
});
await t("student_cohorts", async () => {
  for (let i = 0; i < studs.length; i += chunk) await db.query(`insert into student_cohorts (student_id, cohort_id, joined_at) select (p->>0)::int, (p->>1)::int, now() from json_array_elements($1) p on conflict do nothing`, [JSON.stringify(studs.slice(i, i + chunk).map((s) => [s.id, c.id]))]);
});
await db.exec("rollback");
}
await db.close();
