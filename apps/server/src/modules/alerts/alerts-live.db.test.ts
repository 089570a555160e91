import type { ImportCommit } from "@tally/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { connectStream, type StreamReply } from "../../../test/event-stream-client.js";
import { buildCohort, buildSchool, buildStudent, buildUser } from "../../../test/factories.js";
import { importForm, postImport } from "../../../test/import-upload.js";
import { listening, loginAs, useSignedIn, useTestApp } from "../../../test/test-app.js";

// Issue 30 "Live": an import's evaluation sends ALERTS_CHANGED on the event stream of every
// user who sees one of the cohort's schools, and of nobody else. The event names nothing.

const t = useTestApp({ heartbeatMs: 30 });
const admin = useSignedIn(t, { role: "admin" });

const HEADER = "First Name,Last Name,Email,School,Meeting Date,Meeting Type,Status\n";
const PROGRESS = "Name,Email,Progress,Past Due Assessments,Assessments Without Due Dates\nKim Park,kim@example.org,50,0,0\n";
const REFLECTIONS =
  "User Name,Email,How many hours did you work this week?,How are you feeling? (rating 1-5),Describe your week\nKim Park,kim@example.org,5,4,Fine\n";

let baseUrl = "";
let cohortId = 0;
let tokens: { lincoln: string; other: string; admin: string };

beforeAll(async () => {
  baseUrl = await listening(t.app);
  const lincoln = await buildSchool(t.db, { name: "Lincoln High" });
  const other = await buildSchool(t.db, { name: "Other High" });
  const cohort = await buildCohort(t.db, { name: "Spring", startDate: "2026-03-02", endDate: "2026-04-13", totalExpectedHours: 60 });
  cohortId = cohort.id;
  await buildStudent(t.db, { schoolId: lincoln.id, firstName: "Kim", lastName: "Park", email: "kim@example.org", cohortIds: [cohort.id] });
  const login = async (schoolId: number) => (await loginAs(t.app, await buildUser(t.db, { role: "school_user", schoolId }))).token;
  tokens = { lincoln: await login(lincoln.id), other: await login(other.id), admin: (await loginAs(t.app, await buildUser(t.db, { role: "admin" }))).token };
});

const alertsChanged = (s: StreamReply) => s.events.filter((e) => e.type === "ALERTS_CHANGED");

/** Waits for the next heartbeat: anything written to the stream before it has arrived by then. */
async function nextHeartbeat(s: StreamReply): Promise<void> {
  const seen = s.comments.length;
  await s.until((r) => r.comments.length > seen);
}

describe("ALERTS_CHANGED on the live connection", () => {
  it("reaches the streams of users who see the imported cohort's school after a commit, and not the others", async () => {
    const [lincoln, other, adminStream] = await Promise.all([
      connectStream(baseUrl, tokens.lincoln),
      connectStream(baseUrl, tokens.other),
      connectStream(baseUrl, tokens.admin),
    ]);
    try {
      const form = importForm(
        { cohortId, weekNumber: 1 },
        {
          attendanceReport: { name: "meetings.csv", bytes: `${HEADER}Kim,Park,kim@example.org,Lincoln High,2026-03-03,Mentor,Absent\n` },
          progressReport: { name: "progress.csv", bytes: PROGRESS },
          reflectionReport: { name: "reflections.csv", bytes: REFLECTIONS },
        },
      );
      const res = await postImport(t, "commit", admin.headers, form);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<ImportCommit>().batchId).toBeGreaterThan(0);

      await lincoln.until((r) => alertsChanged(r).length > 0);
      await adminStream.until((r) => alertsChanged(r).length > 0);
      // The event carries its type and time only: no school, no student.
      expect(Object.keys(alertsChanged(lincoln)[0] ?? {}).sort()).toEqual(["createdAt", "id", "type"]);
      expect(alertsChanged(lincoln)[0]?.id).toBe(0);
      // Sent to every stream in one pass: by the other school's next heartbeat it would be there.
      await nextHeartbeat(other);
      expect(alertsChanged(other)).toEqual([]);
    } finally {
      for (const s of [lincoln, other, adminStream]) s.close();
    }
  });

  it("reaches every school's users after a rule change (all cohorts are evaluated)", async () => {
    const other = await connectStream(baseUrl, tokens.other);
    try {
      const rules = await t.app.inject({ method: "GET", url: "/api/alert-rules", headers: admin.headers });
      expect(rules.statusCode, rules.body).toBe(200);
      const { rules: current, cohortOverrides, schedule } = rules.json();
      const res = await t.app.inject({ method: "PUT", url: "/api/alert-rules", headers: admin.headers, payload: { rules: current, cohortOverrides, schedule } });
      expect(res.statusCode, res.body).toBe(200);
      await other.until((r) => alertsChanged(r).length > 0);
      expect(alertsChanged(other)).toHaveLength(1);
    } finally {
      other.close();
    }
  });
});
