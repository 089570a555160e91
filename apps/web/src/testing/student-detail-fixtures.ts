import type { AttendanceRecordItem, StudentDetail, WeeklyDataItem } from "@tally/contract";
import { fireEvent, screen, within } from "@testing-library/react";
import { buildStudents, type DashboardWorld, mockDashboardApi } from "./fake-dashboard-api";
import { renderApp } from "./render-app";
import { buildUser, signIn } from "./signed-in-user";

// The student detail dialog's fixtures: a student in two cohorts, records, and the dialog opened
// from the dashboard as an admin or a school user.

export const SLOW = { timeout: 4000 };

const cohortA = { id: 10, name: "Spring 2025", start_date: "2025-01-06", end_date: "2025-05-30" };
const cohortB = { id: 11, name: "Fall 2025", start_date: "2025-09-01", end_date: "2025-12-19" };

export function detail(overrides: Partial<StudentDetail> = {}): StudentDetail {
  return {
    id: 1,
    first_name: "Student1",
    last_name: "Tester",
    email: "s1@example.org",
    school_id: 1,
    school_name: "North High",
    benefit_assignment_id: "BA-100001",
    currentCohort: cohortB,
    activeTeam: {
      id: 101,
      name: "Hawks",
      cohort_id: 11,
      organization_description: "Local bakery co-op",
      project_description: "Online ordering site",
      start_date: "2025-09-01",
      joined_at: "2025-09-02T10:00:00.000Z",
    },
    previousTeams: [
      {
        id: 100,
        name: "Falcons",
        cohort_id: 10,
        organization_description: null,
        project_description: null,
        start_date: null,
        joined_at: "2025-01-07T10:00:00.000Z",
      },
    ],
    // Deliberately oldest first: the modal must pick the latest by start_date itself.
    cohorts: [cohortA, cohortB],
    ...overrides,
  };
}

export function record(id: number, weekNo: number, type: "mentor" | "advisor", status: AttendanceRecordItem["status"], cohortId = 11, excused = false) {
  return { id, cohort_id: cohortId, week_number: weekNo, date: `2025-09-0${weekNo}`, meeting_type: type, status, excused, formatted_week: `Week ${weekNo}` };
}

export function week(n: number, data: Partial<WeeklyDataItem>): WeeklyDataItem {
  return {
    id: n,
    cohort_id: 11,
    week_number: n,
    week_start: `2025-09-0${n}`,
    flags: [],
    reflection: null,
    advisor_notes: null,
    updated_at: "2025-09-20T12:00:00.000Z",
    total_hours_reported: null,
    ...data,
  };
}

export async function openModal(world: DashboardWorld, role: "admin" | "school_user" = "admin") {
  signIn(buildUser(role === "admin" ? { role } : { role, school_id: 1, school_name: "North High" }));
  const fetchMock = mockDashboardApi({ students: buildStudents(3), ...world });
  renderApp(role === "admin" ? "/dashboard" : "/school/1/dashboard");
  fireEvent.click(await screen.findByRole("button", { name: "View Details for Student1 Tester" }, SLOW));
  const dialog = await screen.findByRole("dialog", {}, SLOW);
  return { dialog, fetchMock };
}

export function openTab(dialog: HTMLElement, name: string) {
  fireEvent.click(within(dialog).getByRole("tab", { name }));
}
