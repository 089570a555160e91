import { readFileSync } from "node:fs";
import { DEMO_TOGGLE_DEFAULTS } from "@tally/contract";
import { importForm, WEEK3_NEW_COHORT, week3Files } from "./import-upload.js";
import type { LoggedIn } from "./test-app.js";
import type { MatrixWorld } from "./authorization-matrix.world.js";

export interface CellInput {
  /** The path with its :param filled in (the resource's id), as registered otherwise. */
  path: string;
  /** The resource's id (a school id for the routes filtered by school). */
  id: number;
  world: MatrixWorld;
  /** The caller's session; undefined for the anonymous caller. */
  session: LoggedIn | undefined;
  /** Unique per cell, for names the routes require to be new. */
  unique: string;
}

export interface CellRequest {
  url?: string;
  payload?: unknown;
}

type Build = (c: CellInput) => CellRequest;

const crmReport = () => ({
  name: "crm-attendance.csv",
  bytes: new Uint8Array(readFileSync(new URL("./fixtures/week3/crm-attendance.csv", import.meta.url))),
});
const strongPassword = "Lantern-Quartz-Meadow-42";
const tokenOf = (c: CellInput) => c.session?.token ?? "not-a-token";
const weeklyUpload = (c: CellInput) => ({
  payload: importForm({ ...WEEK3_NEW_COHORT, cohortName: `Matrix ${c.unique}` }, week3Files()),
});

/**
 * Valid requests for the routes that need more than their path, so every answer is about who
 * asks, never about a malformed request. Routes not named here are sent as their path alone.
 */
// A passkey's answer right in outline, signed by nobody.
const forgedCredential = { id: "AAAA", rawId: "AAAA", type: "public-key", response: { clientDataJSON: "e30", attestationObject: "oA" } };

export const MATRIX_REQUESTS: Record<string, Build> = {
  // Swagger UI's files: one real file for the wildcard route.
  "GET /api/docs/static/*": () => ({ url: "/api/docs/static/swagger-ui.css" }),
  "GET /api/notifications": (c) => ({ url: `${c.path}?token=${tokenOf(c)}` }),
  "GET /api/notifications-poll": (c) => ({ url: `${c.path}?token=${tokenOf(c)}` }),
  "POST /api/auth/login": (c) => ({ payload: { login: c.world.bystander.username, password: c.world.bystander.password } }),
  // The caller's own refresh token: a dead session must not be renewed by it.
  "POST /api/auth/refresh": (c) => ({ payload: { refreshToken: c.session?.refreshToken ?? "not-a-refresh-token" } }),
  "POST /api/auth/logout": (c) => ({ payload: { refreshToken: c.session?.refreshToken ?? "not-a-refresh-token" } }),
  "POST /api/auth/forgot-password": (c) => ({ payload: { email: c.world.bystander.email } }),
  "POST /api/auth/verify-reset-token": () => ({ payload: { token: "not-a-reset-token" } }),
  "GET /api/auth/verify-reset-token": (c) => ({ url: `${c.path}?token=not-a-reset-token` }),
  "POST /api/auth/set-password": () => ({ payload: { token: "not-a-reset-token", password: strongPassword } }),
  "POST /api/auth/verify": () => ({ payload: { token: "not-a-verify-token" } }),
  "POST /api/auth/oidc/exchange": () => ({ payload: { code: "not-a-sign-in-code" } }),
  "GET /api/auth/verify": (c) => ({ url: `${c.path}?token=not-a-verify-token` }),
  "POST /api/auth/mfa/verify": () => ({ payload: { challenge: "not-a-challenge", code: "000000" } }),
  "POST /api/auth/mfa/reauth": () => ({ payload: { password: "not-the-password" } }),
  "POST /api/auth/mfa/totp/confirm": () => ({ payload: { code: "000000" } }),
  "DELETE /api/auth/mfa/totp": () => ({ payload: { code: "000000" } }),
  "POST /api/auth/mfa/recovery-codes": () => ({ payload: { code: "000000" } }),
  "POST /api/auth/mfa/passkey/register": () => ({ payload: { response: forgedCredential } }),
  "POST /api/auth/mfa/passkey/options": () => ({ payload: { challenge: "not-a-challenge" } }),
  "POST /api/auth/mfa/passkey/verify": () => ({ payload: { challenge: "not-a-challenge", response: forgedCredential } }),
  "POST /api/auth/register": (c) => ({
    payload: { username: `matrix-${c.unique}`, email: `matrix-${c.unique}@example.test`, role: "school_user", password: strongPassword, school_id: c.id },
  }),
  "POST /api/schools": (c) => ({ payload: { name: `Matrix School ${c.unique}`, district: "Matrix" } }),
  "PATCH /api/schools/:id": () => ({ payload: { district: "Matrix District" } }),
  "GET /api/students": (c) => ({ url: `${c.path}?school_id=${c.id}` }),
  "GET /api/students/summary": (c) => ({ url: `${c.path}?school_id=${c.id}` }),
  "PUT /api/students/:id": () => ({ payload: { last_name: "Matrix" } }),
  "DELETE /api/students/:id": () => ({ payload: { reason: "Matrix" } }),
  "DELETE /api/cohorts/:id/students": () => ({ payload: { reason: "Matrix" } }),
  "GET /api/cohorts": (c) => ({ url: `${c.path}?school_id=${c.id}` }),
  "GET /api/cohorts/active": (c) => ({ url: `${c.path}?school_id=${c.id}` }),
  "POST /api/cohorts": (c) => ({
    payload: { name: `Matrix ${c.unique}`, program_type: "Projects", start_date: "2027-01-04", end_date: "2027-02-01", total_expected_hours: 40 },
  }),
  "PATCH /api/cohorts/:id": () => ({ payload: { total_expected_hours: 120 } }),
  "GET /api/teams": (c) => ({ url: `${c.path}?school_id=${c.id}` }),
  "GET /api/attendance/cohort-trends": (c) => ({ url: `${c.path}?school_id=${c.id}` }),
  "PUT /api/attendance/:id": () => ({ payload: { status: "late" } }),
  "PUT /api/users/:id": (c) => ({ payload: { username: `renamed-${c.unique}` } }),
  "POST /api/users/:id/reset-password": () => ({ payload: { password: strongPassword } }),
  "PUT /api/users/:id/school": (c) => ({ payload: { school_id: c.world.ownSchoolId } }),
  "PUT /api/users/:id/schools": (c) => ({ payload: { schoolIds: [c.world.ownSchoolId] } }),
  "GET /api/settings/features": (c) => ({ url: `${c.path}?school_id=${c.id}` }),
  "POST /api/settings/features": (c) => ({
    payload: { enableExport: true, enableStudentEditing: true, applyToAllSchools: false, schoolSettings: { [String(c.id)]: { enableExport: true, enableStudentEditing: true } } },
  }),
  "GET /api/settings/cohort-visibility": (c) => ({ url: `${c.path}?school_id=${c.id}` }),
  "POST /api/settings/cohort-visibility": (c) => ({ payload: { settings: [{ cohort_id: c.world.cohortId, school_id: c.id, is_visible: true }] } }),
  "POST /api/settings/demo": () => ({ payload: DEMO_TOGGLE_DEFAULTS }),
  "PUT /api/settings/privacy": () => ({ payload: { retentionYears: null, bulkExportThreshold: 500, blockOnAlarm: false } }),
  "PUT /api/alert-rules": () => ({ payload: { rules: [], cohortOverrides: [] } }),
  "POST /api/alert-rules/preview": () => ({ payload: { rules: [], cohortOverrides: [] } }),
  "POST /api/flag-upload/preview-weekly-data": weeklyUpload,
  "POST /api/flag-upload/commit-weekly-data": weeklyUpload,
  "POST /api/flag-upload/process-flags": (c) => {
    const { progressReport, reflectionReport } = week3Files();
    return { payload: importForm({ cohortId: c.world.cohortId, currentWeek: 3 }, { progressReport, reflectionReport, attendanceReport: crmReport() }) };
  },
  "POST /api/flag-upload/confirm-flag-import": (c) => ({
    payload: { runId: `matrix-${c.unique}`, cohortId: c.world.cohortId, currentWeek: 3, verificationData: [] },
  }),
  "GET /api/pdf-reports/generate": (c) => ({ url: `${c.path}?schoolId=${c.id}` }),
  "GET /api/reports/data": (c) => ({ url: `${c.path}?schoolId=${c.id}` }),
  "GET /api/reports/students.csv": (c) => ({ url: `${c.path}?schoolId=${c.id}` }),
  "POST /api/email/send-report": (c) => ({ payload: { recipient: "reader@example.test", subject: "Matrix", schoolId: c.id } }),
  "PUT /api/profile/digest": () => ({ payload: { enabled: true } }),
  "GET /api/digests/preview": (c) => ({ url: `${c.path}?userId=${c.world.bystander.id}` }),
  "GET /api/digests/unsubscribe": (c) => ({ url: `${c.path}?token=not-an-unsubscribe-token` }),
  "POST /api/digests/unsubscribe": (c) => ({ url: `${c.path}?token=not-an-unsubscribe-token` }),
  "GET /api/alerts": (c) => ({ url: `${c.path}?schoolId=${c.id}` }),
  "GET /api/alerts/summary": (c) => ({ url: `${c.path}?schoolId=${c.id}` }),
  "GET /api/alerts.csv": (c) => ({ url: `${c.path}?schoolId=${c.id}` }),
  "POST /api/alerts/:id/resolve": () => ({ payload: { note: "Matrix" } }),
  "POST /api/alerts/:id/dismiss": () => ({ payload: { reason: "Matrix" } }),
  "POST /api/alerts/:id/assign": () => ({ payload: { userId: null } }),
  "POST /api/alerts/bulk": (c) => ({ payload: { ids: [c.world.ownStudentId], action: "acknowledge" } }),
};
