import type {
  CohortItem,
  SchoolItem,
  StudentAttendanceResponse,
  StudentDetail,
  StudentListItem,
  TeamItem,
  TrendPoint,
  WeeklyDataItem,
} from "@tally/contract";
import { jsonResponse, mockFetch } from "./mock-fetch";

export const SCHOOLS: SchoolItem[] = [
  { id: 1, name: "North High", district: "D1" },
  { id: 2, name: "South High", district: "D1" },
];

export const COHORTS: CohortItem[] = [
  { id: 10, name: "Spring 2025", program_type: "p", start_date: "2025-01-06", end_date: "2025-05-30", total_expected_hours: null },
  { id: 11, name: "Fall 2025", program_type: "p", start_date: "2025-09-01", end_date: "2025-12-19", total_expected_hours: null },
  { id: 12, name: "South Cohort", program_type: "p", start_date: "2025-02-01", end_date: "2025-06-30", total_expected_hours: null },
];

function team(id: number, name: string, schoolId: number, cohortId: number): TeamItem {
  return {
    id,
    name,
    school_id: schoolId,
    school_name: SCHOOLS.find((s) => s.id === schoolId)!.name,
    cohort_id: cohortId,
    cohort_name: COHORTS.find((c) => c.id === cohortId)!.name,
    organization_description: null,
    project_description: null,
    start_date: null,
  };
}

export const TEAMS: TeamItem[] = [
  team(100, "Falcons", 1, 10),
  team(101, "Hawks", 1, 11),
  team(102, "Owls", 2, 12),
  team(103, "Eagles", 1, 10),
];

/** `count` students spread over the teams, plus one without school, cohort or team. */
export function buildStudents(count: number): StudentListItem[] {
  const list: StudentListItem[] = [];
  for (let i = 1; i <= count; i++) {
    const t = TEAMS[i % TEAMS.length]!;
    const c = COHORTS.find((x) => x.id === t.cohort_id)!;
    list.push({
      id: i,
      first_name: `Student${i}`,
      last_name: "Tester",
      email: `s${i}@example.org`,
      school_id: t.school_id,
      school_name: t.school_name,
      cohort: { id: c.id, name: c.name, start_date: c.start_date, end_date: c.end_date },
      team: { id: t.id, name: t.name },
      latestWeek: { week: 3, flagCount: i % 3, attendedPercent: i % 2 === 0 ? 100 : 50 },
    });
  }
  list.push({
    id: 9999,
    first_name: "Lonely",
    last_name: "Learner",
    email: null,
    school_id: null,
    school_name: null,
    cohort: null,
    team: null,
    latestWeek: null,
  });
  return list;
}

export interface DashboardWorld {
  students?: StudentListItem[];
  trends?: TrendPoint[];
  details?: Record<number, StudentDetail>;
  attendance?: Record<number, StudentAttendanceResponse>;
  weekly?: Record<number, WeeklyDataItem[]>;
  /** Paths (without query) that answer 500. */
  failing?: string[];
  /** Reply of GET /settings/features (absent: 404, as before that module exists). */
  features?: unknown;
  /** The "Did you mean …?" name GET /students answers when a search finds nobody. */
  suggestion?: string;
  /** Override of a PUT /students/:id reply. */
  onUpdate?: (id: number, body: unknown) => Response;
  /** Reply of PUT /attendance/:id (absent: 200 with the body). */
  onCorrect?: (id: number, body: unknown) => Response;
}

/** A fake dashboard API over the fixtures above, filtering as the server does. */
export function mockDashboardApi(world: DashboardWorld = {}) {
  const students = world.students ?? buildStudents(30);
  return mockFetch((url, init) => {
    const parsed = new URL(url, "http://test");
    const path = parsed.pathname.replace(/^\/api/, "");
    const p = parsed.searchParams;
    const num = (key: string) => (p.get(key) ? Number(p.get(key)) : undefined);
    if (world.failing?.includes(path)) return jsonResponse(500, { error: "Internal Server Error", code: "INTERNAL" });
    const schoolId = num("school_id");
    const cohortId = num("cohortId");
    const teamId = num("teamId");
    const q = (p.get("q") ?? "").toLowerCase();
    const matching = students.filter(
      (s) =>
        (schoolId === undefined || s.school_id === schoolId) &&
        (cohortId === undefined || s.cohort?.id === cohortId) &&
        (teamId === undefined || s.team?.id === teamId) &&
        (!q || `${s.first_name} ${s.last_name} ${s.school_name ?? ""} ${s.team?.name ?? ""}`.toLowerCase().includes(q)),
    );
    if (path === "/settings/features" && world.features !== undefined) return jsonResponse(200, world.features);
    if (path === "/schools") return jsonResponse(200, { data: SCHOOLS });
    if (path === "/cohorts") {
      const ids = new Set(TEAMS.filter((t) => schoolId === undefined || t.school_id === schoolId).map((t) => t.cohort_id));
      return jsonResponse(200, { data: COHORTS.filter((c) => ids.has(c.id)) });
    }
    if (path === "/teams") {
      return jsonResponse(200, {
        data: TEAMS.filter(
          (t) => (schoolId === undefined || t.school_id === schoolId) && (cohortId === undefined || t.cohort_id === cohortId),
        ),
      });
    }
    if (path === "/students/summary") {
      return jsonResponse(200, {
        schoolCount: new Set(matching.map((s) => s.school_id).filter((x) => x !== null)).size,
        studentCount: matching.length,
        cohortCount: new Set(matching.map((s) => s.cohort?.id).filter((x) => x !== undefined)).size,
        teamCount: new Set(matching.map((s) => s.team?.id).filter((x) => x !== undefined)).size,
      });
    }
    if (path === "/students") {
      const page = num("page") ?? 1;
      const limit = num("limit") ?? 1000;
      return jsonResponse(200, {
        data: matching.slice((page - 1) * limit, page * limit),
        total: matching.length,
        page,
        limit,
        suggestion: q && matching.length === 0 ? (world.suggestion ?? null) : null,
      });
    }
    if (path === "/attendance/cohort-trends") {
      const type = p.get("meetingType") ?? "both";
      // A search that finds nobody has no attendance to count, as on the server.
      const found = q ? matching.length > 0 : true;
      const points = (found ? (world.trends ?? []) : []).map((t) => ({
        ...t,
        mentorPresent: type === "advisor" ? null : t.mentorPresent,
        mentorLate: type === "advisor" ? null : t.mentorLate,
        advisorPresent: type === "mentor" ? null : t.advisorPresent,
        advisorLate: type === "mentor" ? null : t.advisorLate,
      }));
      return jsonResponse(200, { data: points });
    }
    const detail = /^\/students\/(\d+)$/.exec(path);
    if (detail) {
      const id = Number(detail[1]);
      if (init.method === "PUT") {
        if (world.onUpdate) return world.onUpdate(id, JSON.parse(String(init.body)));
        return jsonResponse(200, world.details?.[id]);
      }
      const found = world.details?.[id];
      return found ? jsonResponse(200, found) : jsonResponse(404, { error: "Not found", code: "NOT_FOUND" });
    }
    const correction = /^\/attendance\/(\d+)$/.exec(path);
    if (correction && init.method === "PUT") {
      const body = JSON.parse(String(init.body)) as object;
      return world.onCorrect ? world.onCorrect(Number(correction[1]), body) : jsonResponse(200, { id: Number(correction[1]), ...body });
    }
    const attendance = /^\/attendance\/student\/(\d+)$/.exec(path);
    if (attendance) return jsonResponse(200, world.attendance?.[Number(attendance[1])] ?? { data: [], weeks: [] });
    const weekly = /^\/weekly-data\/(\d+)$/.exec(path);
    if (weekly) return jsonResponse(200, { data: world.weekly?.[Number(weekly[1])] ?? [] });
    return jsonResponse(404, { error: "Not found", code: "NOT_FOUND" });
  });
}

/** The query parameters of every call made to `path`. */
export function callsTo(fetchMock: ReturnType<typeof mockFetch>, path: string): URLSearchParams[] {
  return fetchMock.mock.calls
    .map((call) => new URL(String(call[0]).replace(/^https?:\/\/[^/]+/, ""), "http://test"))
    .filter((u) => u.pathname === `/api${path}`)
    .map((u) => u.searchParams);
}
