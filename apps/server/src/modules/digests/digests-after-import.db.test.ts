import { DEFAULT_ALERT_RULES, DEFAULT_ALERT_SCHEDULE } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { insertAlertRow } from "../../../test/digest-alert-rows.js";
import { buildCohort, buildSchool, buildStudent, buildUser, setSetting } from "../../../test/factories.js";
import { importForm, postImport, WEEK3_NEW_COHORT, week3Files } from "../../../test/import-upload.js";
import { useSmtpTestServer } from "../../../test/smtp-test-server.js";
import { useSignedIn, useTestApp } from "../../../test/test-app.js";
import { digestAfterImport, digestTick } from "./digest-scheduler.js";
import { readDelivery } from "./digests.repository.js";
import { currentDigestWeek, runDigestWeek } from "./digests.service.js";

const smtp = useSmtpTestServer();
const t = useTestApp(() => ({ mailer: smtp.mailer }));
const admin = useSignedIn(t, { role: "admin" });

const schedule = (digestWhen: "monday_morning" | "after_import") =>
  setSetting(t.db, "alert_rules", { rules: DEFAULT_ALERT_RULES, cohortOverrides: [], schedule: { ...DEFAULT_ALERT_SCHEDULE, digestWhen } });

describe('the "after_import" digest', () => {
  it("goes out right after a committed weekly import, and only then", async () => {
    const school = await buildSchool(t.db, { name: "Maple" });
    const cohort = await buildCohort(t.db);
    const student = await buildStudent(t.db, { schoolId: school.id, cohortIds: [cohort.id] });
    await insertAlertRow(t.db, { studentId: student.id, cohortId: cohort.id, openedAt: new Date(Date.now() - 3600_000) });
    const user = await buildUser(t.db, { role: "school_user", schoolId: school.id });

    // Monday morning is the setting: an import sends nothing.
    await schedule("monday_morning");
    expect(await digestAfterImport(t.ctx)).toBeNull();

    await schedule("after_import");
    // A tick only retries under after_import: it starts no week's digest.
    expect(await digestTick(t.ctx)).toEqual({ sent: 0, empty: 0, failed: 0 });
    expect(smtp.messages.filter((m) => m.to.includes(user.email))).toHaveLength(0);

    // The fixture's schools must exist for its rows to be used.
    for (const name of ["Riverside Academy", "Eastwood Secondary", "Northside High School"]) await buildSchool(t.db, { name });
    const res = await postImport(t, "commit", admin.headers, importForm(WEEK3_NEW_COHORT, week3Files()));
    expect(res.statusCode, res.body).toBe(200);
    const mail = await smtp.waitForMessage((m) => m.to.includes(user.email));
    expect(mail.text).toContain("mentor on 2026-01-05");
    // The week's digest is done: running again sends nothing more.
    expect(await digestAfterImport(t.ctx)).toMatchObject({ sent: 0 });
    expect(smtp.messages.filter((m) => m.to.includes(user.email))).toHaveLength(1);
  });

  it("keeps the week open for a user with nothing new, so a later import's alerts still reach them, once", async () => {
    const school = await buildSchool(t.db, { name: "Birch" });
    const cohort = await buildCohort(t.db);
    const student = await buildStudent(t.db, { schoolId: school.id, cohortIds: [cohort.id] });
    const user = await buildUser(t.db, { role: "school_user", schoolId: school.id });
    const week = await currentDigestWeek(t.ctx);
    const mails = () => smtp.messages.filter((m) => m.to.includes(user.email));

    // Monday's run found nothing for them, then the setting became "after each import".
    await schedule("monday_morning");
    await runDigestWeek(t.ctx, week);
    expect(await readDelivery(t.db, user.id, week)).toMatchObject({ alerts: 0 });
    await schedule("after_import");

    // An import that raises nothing in their school leaves the week owed, not used up.
    await digestAfterImport(t.ctx);
    expect(await readDelivery(t.db, user.id, week)).toBeUndefined();
    expect(mails()).toHaveLength(0);

    // The next import of the week raises their student's alert: that is their digest.
    await insertAlertRow(t.db, { studentId: student.id, cohortId: cohort.id, openedAt: new Date(Date.now() - 60_000) });
    await digestAfterImport(t.ctx);
    await smtp.waitForMessage((m) => m.to.includes(user.email));
    expect(await readDelivery(t.db, user.id, week)).toMatchObject({ alerts: 1 });
    await digestAfterImport(t.ctx);
    expect(mails()).toHaveLength(1);
  });
});
