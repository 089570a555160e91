import type { CohortItem } from "@tally/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCohort } from "../../../test/factories.js";
import { useSignedIn, useTestApp } from "../../../test/test-app.js";
import { manualClock } from "../../lib/clock.js";

// GET /cohorts/active feeds the flag uploader: a week's reports arrive after the week, so a
// cohort that ended recently, or starts soon, is still offered.

const t = useTestApp({ clock: manualClock(new Date("2026-11-25T10:00:00Z")) });
const superAdmin = useSignedIn(t, { role: "super_admin" });

beforeAll(async () => {
  const cohort = (name: string, startDate: string, endDate: string) => buildCohort(t.db, { name, startDate, endDate });
  await cohort("Running", "2026-10-05", "2026-12-18");
  await cohort("Ended 4 weeks ago", "2026-09-07", "2026-10-28");
  await cohort("Ended 5 weeks ago", "2026-09-07", "2026-10-20");
  await cohort("Starts in 2 weeks", "2026-12-09", "2027-01-29");
  await cohort("Starts in 3 weeks", "2026-12-16", "2027-02-05");
});

describe("GET /api/cohorts/active", () => {
  it("lists cohorts running, starting within 14 days or ended within 28 days, newest first", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/cohorts/active", headers: superAdmin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: CohortItem[] }>().data.map((c) => c.name)).toEqual(["Starts in 2 weeks", "Running", "Ended 4 weeks ago"]);
  });
});
