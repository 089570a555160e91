import type {
  DashboardFilter,
  StudentDetail,
  StudentListItem,
  StudentsResponse,
  StudentsSummary,
  UpdateStudentRequest,
} from "@tally/contract";
import { isAdminRole, LIMITS, MESSAGES } from "@tally/contract";
import type { ServerContext } from "../../context.js";
import type { DbExecutor } from "../../db/executor.js";
import { badRequest, conflict, forbidden, notFound } from "../../lib/errors.js";
import { startOfIsoWeek } from "../../lib/iso-date.js";
import { recordChange } from "../audit/audit.service.js";
import { coveredSchools, isFullExport } from "../exports/exports.policy.js";
import { openExport, recordView } from "../exports/exports.service.js";
import type { Caller } from "../scope/scope.service.js";
import { schoolExists } from "../schools/schools.service.js";
import { type DataScope, isSchoolInScope, resolveScope, resolveStudentReadScope, type ScopeSubject } from "../scope/scope.js";
import { readFeatureSettings } from "../settings/settings.service.js";
import { findTeamAtSchool } from "../teams/teams.service.js";
import { canChangeBenefitId, canChangeStudentEmail, canEditStudent } from "./students.policy.js";
import * as repo from "./students.repository.js";
import * as summaryRepo from "./students-summary.repository.js";
import { closestStudentName } from "./students-suggestion.repository.js";

/**
 * GET /students: a page of at most LIMITS.studentsViewPageSize students is a view (the
 * dashboard's grid), recorded as viewed; a larger page is a bulk read, so an export: it goes
 * through the export gate first and is recorded as read as data. Either way every student the
 * page returned goes into the record of access.
 */
export async function readStudentsPage(
  ctx: ServerContext,
  user: Caller,
  filter: DashboardFilter,
  page: { page: number; limit: number },
): Promise<StudentsResponse> {
  // Read first: a filter the scope refuses (400, 404) then claims no download; nothing is sent before the gate.
  const answer = await listStudents(ctx.database.db, user, filter, page);
  const ids = answer.data.map((s) => s.id);
  if (page.limit <= LIMITS.studentsViewPageSize) {
    recordView(ctx, user, ids);
    return answer;
  }
  const ticket = await openExport(ctx, user, { action: "data", schoolIds: coveredSchools(user, filter.schoolIds), fullExport: isFullExport(user, filter) });
  ticket.record(ids);
  return answer;
}

export async function listStudents(
  db: DbExecutor,
  user: ScopeSubject,
  filter: DashboardFilter,
  { page, limit }: { page: number; limit: number },
): Promise<StudentsResponse> {
  const scope = await resolveScope(db, user, filter);
  const { rows, total } = await repo.listStudents(db, scope, filter, { offset: (page - 1) * limit, limit });
  const data: StudentListItem[] = rows.map((r) => ({
    id: r.id,
    first_name: r.first_name,
    last_name: r.last_name,
    email: r.email,
    school_id: r.school_id,
    school_name: r.school_name,
    cohort:
      r.cohort_id === null
        ? null
        : { id: r.cohort_id, name: r.cohort_name ?? "", start_date: r.cohort_start_date ?? "", end_date: r.cohort_end_date ?? "" },
    team: r.team_id === null ? null : { id: r.team_id, name: r.team_name ?? "" },
    latestWeek:
      r.week_number === null
        ? null
        : {
            week: r.week_number,
            flagCount: Number(r.week_flags ?? 0),
            attendedPercent: percentOf(Number(r.week_attended ?? 0), Number(r.week_records ?? 0)),
          },
  }));
  // Only an empty search pays for the suggestion.
  const suggestion = total === 0 && filter.q ? await closestStudentName(db, scope, filter.q) : null;
  return { data, total, page, limit, suggestion };
}

/**
 * Ids of the students the dashboard's filters and search select in the caller's scope: the
 * trend and the weekly table of a search are counted from these students' own records.
 */
export async function matchingStudentIds(db: DbExecutor, scope: DataScope, filter: DashboardFilter): Promise<number[]> {
  const rows = await repo.filteredStudentIds(db, scope, filter);
  return rows.map((r) => r.id);
}

function percentOf(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((100 * part) / whole) : null;
}

/**
 * The dashboard's totals; with `now`, also the same totals as this week began (the week starts
 * Monday 00:00 UTC), null when no student under the filters existed then.
 */
export async function summarizeStudents(
  db: DbExecutor,
  user: ScopeSubject,
  filter: DashboardFilter,
  now?: Date,
): Promise<StudentsSummary> {
  const scope = await resolveScope(db, user, filter);
  const summary = await summaryRepo.summarizeStudents(db, scope, filter);
  if (now === undefined) return summary;
  const weekStart = startOfIsoWeek(now);
  const before = await summaryRepo.summarizeStudents(db, scope, { ...filter, before: weekStart });
  const previousWeek = before.studentCount > 0 ? { ...before, weekStart: weekStart.toISOString().slice(0, 10) } : null;
  return { ...summary, previousWeek };
}

/** The student if the scope may see it; otherwise the same 404 as for an unknown id. */
export async function requireStudentInScope(db: DbExecutor, scope: DataScope, id: number): Promise<repo.StudentRow> {
  const student = await repo.findStudentInScope(db, scope, id);
  if (!student) throw notFound();
  return student;
}

function teamOf(t: repo.StudentTeamRow): StudentDetail["previousTeams"][number] {
  return {
    id: t.id,
    name: t.name,
    cohort_id: t.cohort_id,
    organization_description: t.organization_description,
    project_description: t.project_description,
    start_date: t.start_date,
    joined_at: t.joined_at.toISOString(),
  };
}

async function detailOf(db: DbExecutor, scope: DataScope, student: repo.StudentRow): Promise<StudentDetail> {
  const [cohorts, teams] = await Promise.all([
    repo.listStudentCohorts(db, scope, [student.id]),
    repo.listStudentTeams(db, scope, [student.id]),
  ]);
  const cohortList = cohorts.map((c) => ({ id: c.id, name: c.name, start_date: c.start_date, end_date: c.end_date }));
  return {
    ...student,
    currentCohort: cohortList[0] ?? null,
    activeTeam: teams[0] ? teamOf(teams[0]) : null,
    previousTeams: teams.slice(1).map(teamOf),
    cohorts: cohortList,
  };
}

export async function getStudentDetail(db: DbExecutor, user: ScopeSubject, id: number): Promise<StudentDetail> {
  const scope = await resolveStudentReadScope(db, user);
  const found = await repo.findStudentWithMemberships(db, scope, id);
  if (!found) throw notFound();
  const { cohorts, teams, ...student } = found;
  const teamList = teams.map((t) => teamOf({ ...t, student_id: id, joined_at: new Date(t.joined_at) }));
  return {
    ...student,
    currentCohort: cohorts[0] ?? null,
    activeTeam: teamList[0] ?? null,
    previousTeams: teamList.slice(1),
    cohorts,
  };
}

const UNIQUE_VIOLATION = "23505";

/**
 * PUT /students/:id. The edit is audited (student.updated, the changed fields before and
 * after): an import's undo reads those rows to find, and never silently drop, later edits of
 * its students. The student's row is locked first, so an edit and an undo of the import that
 * created the student take turns (an edit after the undo removed it is a 404).
 */
export async function updateStudent(
  ctx: ServerContext,
  user: ScopeSubject & { id: number },
  id: number,
  body: UpdateStudentRequest,
): Promise<StudentDetail> {
  // Before any lookup, so the refusal says nothing about the address or the student.
  if (body.email !== undefined && !canChangeStudentEmail(user.role)) throw forbidden(MESSAGES.studentEmailAdminOnly);
  if (body.benefit_assignment_id !== undefined && !canChangeBenefitId(user.role)) throw forbidden(MESSAGES.studentBenefitIdAdminOnly);
  const benefitId = body.benefit_assignment_id === undefined ? undefined : body.benefit_assignment_id || null;
  const now = ctx.clock.now();
  try {
    return await ctx.database.db.transaction().execute(async (trx) => {
      if (!(await repo.lockStudent(trx, id))) throw notFound();
      const scope = await resolveScope(trx, user);
      const student = await requireStudentInScope(trx, scope, id);
      // The changed fields, for the audit row.
      const before: Record<string, unknown> = {};
      const changed: Record<string, unknown> = {};
      const targetSchool = body.school_id ?? student.school_id;
      const features = await readFeatureSettings(trx);
      if (!canEditStudent(user.role, features, student.school_id, targetSchool)) throw forbidden(MESSAGES.studentEditingOff);
      if (body.school_id !== undefined && body.school_id !== student.school_id) {
        if (isAdminRole(user.role)) {
          if (!(await schoolExists(trx, body.school_id))) {
            throw badRequest("School not found", [{ path: "body.school_id", message: "School not found" }]);
          }
        } else if (!isSchoolInScope(scope, body.school_id)) {
          throw forbidden();
        }
      }
      const email = body.email === undefined ? undefined : body.email ? body.email : null;
      if (email && (await repo.findEmailOwner(trx, email, id)) !== undefined) {
        throw conflict("A student with this e-mail address already exists");
      }
      if (benefitId) {
        // Admins see every school: naming the holder lets them go and fix the right record.
        const holder = await repo.findBenefitIdHolder(trx, benefitId, id);
        if (holder) throw benefitIdTaken(benefitId, holder.name);
      }
      if (body.team_id !== undefined) {
        const team = targetSchool === null ? undefined : await findTeamAtSchool(trx, scope, body.team_id, targetSchool);
        if (!team) {
          const message = "The team does not belong to the student's school";
          throw badRequest(message, [{ path: "body.team_id", message }]);
        }
        const current = (await repo.listStudentTeams(trx, scope, [id]))[0];
        if (current?.id !== team.id) {
          await repo.joinTeam(trx, id, team.id, now);
          before.team_id = current?.id ?? null;
          changed.team_id = team.id;
        }
      }
      const fields: Parameters<typeof repo.updateStudentFields>[2] = {};
      if (body.first_name !== undefined) fields.first_name = body.first_name;
      if (body.last_name !== undefined) fields.last_name = body.last_name;
      if (email !== undefined) fields.email = email;
      if (body.school_id !== undefined) fields.school_id = body.school_id;
      if (benefitId !== undefined) fields.benefit_assignment_id = benefitId;
      for (const key of ["first_name", "last_name", "email", "school_id", "benefit_assignment_id"] as const) {
        if (fields[key] !== undefined && fields[key] !== student[key]) {
          before[key] = student[key];
          changed[key] = fields[key];
        }
      }
      await repo.updateStudentFields(trx, id, fields, now);
      if (Object.keys(changed).length > 0) {
        await recordChange(trx, { actorId: user.id, action: "student.updated", entity: "student", entityId: id, before, after: changed, at: now });
      }
      // Read back with the scope as it now stands (an admin may have moved the student away).
      const after = await repo.findStudentInScope(trx, scope, id);
      const fallback = after ?? { ...student, ...fields, school_name: null };
      return detailOf(trx, scope, fallback as repo.StudentRow);
    });
  } catch (err) {
    const { code, constraint, message } = err as { code?: string; constraint?: string; message?: string };
    // Two edits at once can both pass the checks above; the unique index decides.
    const benefitKey = constraint === "students_benefit_key" || String(message).includes("students_benefit_key");
    if (code === UNIQUE_VIOLATION && benefitKey && benefitId) throw benefitIdTaken(benefitId, null);
    if (code === UNIQUE_VIOLATION) throw conflict("A student with this e-mail address already exists");
    throw err;
  }
}

function benefitIdTaken(benefitId: string, holder: string | null) {
  const message = `Benefit Assignment ID "${benefitId}" already belongs to ${holder ?? "another student"}`;
  return conflict(message);
}
