import type { CallerKind, ResourceKind } from "./authorization-matrix.world.js";

/**
 * The authorisation matrix: for every route under /api, the status each kind of caller gets.
 * A route that takes a resource (a path id, or the school its query or body names) has three
 * statuses per caller: [own, another school's, nonexistent]. Cohorts and import batches belong
 * to no school, so theirs are [existing, nonexistent]. The test fails for a registered route
 * without a row here, and wherever "another school's" and "nonexistent" have the same status it
 * also requires the same body (out of scope must not be told apart from missing).
 *
 * Callers: anonymous (no token), school (demo `school`), district (demo `district`, whose
 * district holds the school user's school but not the other), admin, superAdmin, deactivated
 * (a super admin's token, account since deactivated) and stale (a super admin signed out everywhere
 * after its tokens were issued: session version bumped, refresh tokens revoked).
 */
export type Cell = number | readonly [number, number, number] | readonly [number, number];

export interface MatrixRow {
  resource?: ResourceKind;
  expect: Record<CallerKind, Cell>;
}

type LiveCallers = Pick<Record<CallerKind, Cell>, "school" | "district" | "admin" | "superAdmin">;

/** No token, or a dead one: the guard's 401 before anything else is looked at. */
const DEAD_401 = { anonymous: 401, deactivated: 401, stale: 401 } as const;

const everyone = (status: number): MatrixRow => ({
  expect: { anonymous: status, school: status, district: status, admin: status, superAdmin: status, deactivated: status, stale: status },
});
const signedIn = (live: LiveCallers): MatrixRow => ({ expect: { ...DEAD_401, ...live } });
const onResource = (resource: ResourceKind, live: LiveCallers): MatrixRow => {
  const dead = resource === "cohort" || resource === "importBatch" || resource === "erasableCohort" ? ([401, 401] as const) : ([401, 401, 401] as const);
  return { resource, expect: { anonymous: dead, deactivated: dead, stale: dead, ...live } };
};

// Shorthands for the commonest resource rows.
const ADMIN_ONLY_ID = { school: [403, 403, 403], district: [403, 403, 403], admin: [200, 200, 404], superAdmin: [200, 200, 404] } as const;
const SCOPED_ID = { school: [200, 404, 404], district: [200, 404, 404], admin: [200, 200, 404], superAdmin: [200, 200, 404] } as const;
const SCOPED_LIST = { school: [200, 200, 200], district: [200, 200, 200], admin: [200, 200, 200], superAdmin: [200, 200, 200] } as const;
/** Admin settings read for any school id (an unknown one gets the defaults). */
const ADMIN_READS_ANY_SCHOOL = { school: [403, 403, 403], district: [403, 403, 403], admin: [200, 200, 200], superAdmin: [200, 200, 200] } as const;
/** Admin settings saved for the schools the body names: an unknown one is a form error. */
const ADMIN_SAVES_NAMED_SCHOOLS = { school: [403, 403, 403], district: [403, 403, 403], admin: [200, 200, 400], superAdmin: [200, 200, 400] } as const;

export const AUTHORIZATION_MATRIX: Record<string, MatrixRow> = {
  // Public: no token needed, a dead one changes nothing.
  "GET /api/health-check": everyone(200),
  "GET /api/debug/cors": everyone(200),
  "GET /api/public-config": everyone(200),
  "GET /api/openapi.json": everyone(200),
  // Readiness is for the proxy in front: public like liveness.
  "GET /api/health-check/ready": everyone(200),
  // The API reference (Swagger UI, served with the app): as public as the document it shows.
  "GET /api/docs": everyone(200),
  // Swagger UI sends its old index address on to /api/docs.
  "GET /api/docs/static/index.html": everyone(302),
  "GET /api/docs/static/swagger-initializer.js": everyone(200),
  "GET /api/docs/json": everyone(200),
  "GET /api/docs/yaml": everyone(200),
  "GET /api/docs/static/*": everyone(200),
  // The live connection takes its token in the query; a dead one gets the guard's 401, except
  // that the poll hands a session ended by "sign out everywhere" the FORCE_LOGOUT that ended it
  // (and nothing else), so a client that missed it on the stream still learns why.
  "GET /api/notifications": signedIn({ school: 200, district: 200, admin: 200, superAdmin: 200 }),
  "GET /api/notifications-poll": { expect: { ...DEAD_401, stale: 200, school: 200, district: 200, admin: 200, superAdmin: 200 } },

  // Sign-in routes: public, answered by what the body proves (a bogus token is refused alike).
  "POST /api/auth/login": everyone(200),
  // The caller's own refresh token: renewed for a live session, never for a dead one.
  "POST /api/auth/refresh": { expect: { ...DEAD_401, school: 200, district: 200, admin: 200, superAdmin: 200 } },
  "POST /api/auth/logout": everyone(200),
  "POST /api/auth/forgot-password": everyone(200),
  "POST /api/auth/verify-reset-token": everyone(200),
  "GET /api/auth/verify-reset-token": everyone(200),
  "POST /api/auth/set-password": everyone(400),
  "POST /api/auth/verify": everyone(400),
  "GET /api/auth/verify": everyone(400),
  "GET /api/auth/profile": signedIn({ school: 200, district: 200, admin: 200, superAdmin: 200 }),
  // The second factor: finishing a sign-in is public (an unknown challenge is 401 for anyone);
  // one's own enrolment is every signed-in person's, admins' included (they must be able to enrol).
  "POST /api/auth/mfa/verify": everyone(401),
  "GET /api/auth/mfa": signedIn({ school: 200, district: 200, admin: 200, superAdmin: 200 }),
  // Confirming it is you again: a wrong password is refused (403, the session itself is fine).
  "POST /api/auth/mfa/reauth": signedIn({ school: 403, district: 403, admin: 403, superAdmin: 403 }),
  // Adding a factor needs that fresh proof (issue 41), which the matrix's callers have not given.
  "POST /api/auth/mfa/totp/enroll": signedIn({ school: 403, district: 403, admin: 403, superAdmin: 403 }),
  // No enrolment started: nothing to confirm.
  "POST /api/auth/mfa/totp/confirm": signedIn({ school: 400, district: 400, admin: 400, superAdmin: 400 }),
  // Not enrolled: nothing to remove or regenerate.
  "DELETE /api/auth/mfa/totp": signedIn({ school: 400, district: 400, admin: 400, superAdmin: 400 }),
  "POST /api/auth/mfa/recovery-codes": signedIn({ school: 400, district: 400, admin: 400, superAdmin: 400 }),
  // Passkeys: adding one needs a fresh proof (403 here) and two-step sign-in on; its answer
  // without options is 400; signing in with one is public, and an unknown challenge is 401 for anyone.
  "POST /api/auth/mfa/passkey/register/options": signedIn({ school: 403, district: 403, admin: 403, superAdmin: 403 }),
  "POST /api/auth/mfa/passkey/register": signedIn({ school: 400, district: 400, admin: 400, superAdmin: 400 }),
  "POST /api/auth/mfa/passkey/options": everyone(401),
  "POST /api/auth/mfa/passkey/verify": everyone(401),
  "POST /api/users/:id/mfa/reset": onResource("user", ADMIN_ONLY_ID),
  // The school named in the new account; a school that does not exist is a form error.
  "POST /api/auth/register": onResource("school", {
    school: [403, 403, 403],
    district: [403, 403, 403],
    admin: [201, 201, 400],
    superAdmin: [201, 201, 400],
  }),
  "POST /api/auth/request-reset/:id": onResource("user", ADMIN_ONLY_ID),
  // Single sign-on: public. The matrix's app has no providers, so its start and callback
  // answer 404 (an unknown provider) and a bogus one-time code 401, whoever asks.
  "GET /api/auth/providers": everyone(200),
  "GET /api/auth/oidc/:id/start": everyone(404),
  "GET /api/auth/oidc/:id/callback": everyone(404),
  "POST /api/auth/oidc/exchange": everyone(401),

  "GET /api/mail/outbox": signedIn({ school: 403, district: 403, admin: 403, superAdmin: 200 }),
  // The audit log is the super admin's alone.
  "GET /api/audit": signedIn({ school: 403, district: 403, admin: 403, superAdmin: 200 }),
  "GET /api/audit/export.csv": signedIn({ school: 403, district: 403, admin: 403, superAdmin: 200 }),
  // The record of access: one student's for admins (scoped, like the detail); all of it for super admins.
  "GET /api/students/:id/access-log": onResource("student", ADMIN_ONLY_ID),
  "GET /api/access-log": signedIn({ school: 403, district: 403, admin: 403, superAdmin: 200 }),
  "DELETE /api/access-log/alarms/:id": onResource("user", { school: [403, 403, 403], district: [403, 403, 403], admin: [403, 403, 403], superAdmin: [200, 200, 200] }),
  "GET /api/settings/privacy": signedIn({ school: 403, district: 403, admin: 200, superAdmin: 200 }),
  "PUT /api/settings/privacy": signedIn({ school: 403, district: 403, admin: 200, superAdmin: 200 }),
  "GET /api/settings/privacy/retention-preview": signedIn({ school: 403, district: 403, admin: 200, superAdmin: 200 }),
  // Retention stays off in the matrix's world (it would remove its students): the admins' run is refused as off.
  "POST /api/settings/privacy/retention-run": signedIn({ school: 403, district: 403, admin: 409, superAdmin: 409 }),
  "GET /api/alert-rules": signedIn({ school: 200, district: 200, admin: 200, superAdmin: 200 }),
  "PUT /api/alert-rules": signedIn({ school: 403, district: 403, admin: 200, superAdmin: 200 }),
  "POST /api/alert-rules/preview": signedIn({ school: 403, district: 403, admin: 200, superAdmin: 200 }),

  "GET /api/schools": signedIn({ school: 200, district: 200, admin: 200, superAdmin: 200 }),
  "GET /api/schools/admin": signedIn({ school: 403, district: 403, admin: 200, superAdmin: 200 }),
  "POST /api/schools": signedIn({ school: 403, district: 403, admin: 201, superAdmin: 201 }),
  "PATCH /api/schools/:id": onResource("school", ADMIN_ONLY_ID),

  // Dashboard lists filtered by school: a school outside the caller's scope gives the empty
  // list a school without students gives.
  "GET /api/students": onResource("school", SCOPED_LIST),
  "GET /api/students/summary": onResource("school", SCOPED_LIST),
  "GET /api/students/:id": onResource("student", SCOPED_ID),
  "PUT /api/students/:id": onResource("student", SCOPED_ID),
  "DELETE /api/students/:id": onResource("erasableStudent", ADMIN_ONLY_ID),
  "GET /api/students/:id/export": onResource("student", ADMIN_ONLY_ID),
  "DELETE /api/cohorts/:id/students": onResource("erasableCohort", { school: [403, 403], district: [403, 403], admin: [403, 403], superAdmin: [200, 404] }),
  "GET /api/cohorts": onResource("school", SCOPED_LIST),
  "GET /api/cohorts/active": onResource("school", SCOPED_LIST),
  "GET /api/cohorts/admin": signedIn({ school: 403, district: 403, admin: 200, superAdmin: 200 }),
  "POST /api/cohorts": signedIn({ school: 403, district: 403, admin: 201, superAdmin: 201 }),
  "PATCH /api/cohorts/:id": onResource("cohort", { school: [403, 403], district: [403, 403], admin: [200, 404], superAdmin: [200, 404] }),
  "GET /api/teams": onResource("school", SCOPED_LIST),
  "GET /api/weekly-data/:studentId": onResource("student", SCOPED_ID),
  "GET /api/attendance/student/:id": onResource("student", SCOPED_ID),
  "GET /api/attendance/cohort-trends": onResource("school", SCOPED_LIST),
  "PUT /api/attendance/:id": onResource("attendanceRecord", SCOPED_ID),

  "GET /api/users": signedIn({ school: 403, district: 403, admin: 200, superAdmin: 200 }),
  "PUT /api/users/:id": onResource("user", ADMIN_ONLY_ID),
  "DELETE /api/users/:id": onResource("user", ADMIN_ONLY_ID),
  "POST /api/users/:id/deactivate": onResource("user", ADMIN_ONLY_ID),
  "POST /api/users/:id/reactivate": onResource("user", ADMIN_ONLY_ID),
  "POST /api/users/:id/reset-password": onResource("user", ADMIN_ONLY_ID),
  "PUT /api/users/:id/school": onResource("user", ADMIN_ONLY_ID),
  "GET /api/users/:id/schools": onResource("districtUser", ADMIN_ONLY_ID),
  "PUT /api/users/:id/schools": onResource("districtUser", ADMIN_ONLY_ID),
  "GET /api/users/:id/login-logs": onResource("user", ADMIN_ONLY_ID),

  // A school user may read its own school's features; another school's is refused as a
  // missing one is. Admins read any id (an unknown one gets the defaults).
  "GET /api/settings/features": onResource("school", {
    school: [200, 403, 403],
    district: [200, 403, 403],
    admin: [200, 200, 200],
    superAdmin: [200, 200, 200],
  }),
  // Saving names schools in the body: an unknown one is a form error.
  "POST /api/settings/features": onResource("school", ADMIN_SAVES_NAMED_SCHOOLS),
  "GET /api/settings/cohort-visibility": onResource("school", ADMIN_READS_ANY_SCHOOL),
  "POST /api/settings/cohort-visibility": onResource("school", ADMIN_SAVES_NAMED_SCHOOLS),
  // Everyone signed in reads the demo toggles (the web app hides the demo school by them).
  "GET /api/settings/demo": signedIn({ school: 200, district: 200, admin: 200, superAdmin: 200 }),
  "POST /api/settings/demo": signedIn({ school: 403, district: 403, admin: 200, superAdmin: 200 }),

  "POST /api/flag-upload/preview-weekly-data": signedIn({ school: 403, district: 403, admin: 200, superAdmin: 200 }),
  "POST /api/flag-upload/commit-weekly-data": signedIn({ school: 403, district: 403, admin: 200, superAdmin: 200 }),
  "GET /api/imports": signedIn({ school: 403, district: 403, admin: 200, superAdmin: 200 }),
  // The batch is the newest of its cohort: the admin undoes it, the super admin then finds it undone.
  "POST /api/imports/:id/undo": onResource("importBatch", { school: [403, 403], district: [403, 403], admin: [200, 404], superAdmin: [409, 404] }),
  // The flag uploader is the super admin's alone.
  "POST /api/flag-upload/process-flags": signedIn({ school: 403, district: 403, admin: 403, superAdmin: 200 }),
  // No such run (the runId is new): nothing to confirm.
  "POST /api/flag-upload/confirm-flag-import": signedIn({ school: 403, district: 403, admin: 403, superAdmin: 404 }),

  // Reports name one school: another school's is missing to the caller.
  "GET /api/pdf-reports/generate": onResource("school", SCOPED_ID),
  "GET /api/reports/data": onResource("school", SCOPED_ID),
  "GET /api/reports/students.csv": onResource("school", SCOPED_ID),
  "POST /api/email/send-report": onResource("school", SCOPED_ID),

  // The weekly digest: one's own setting, the admins' preview and test, and the signed
  // unsubscribe link (no sign-in: a token that is no valid link is a 400 for anyone).
  "GET /api/profile/digest": signedIn({ school: 200, district: 200, admin: 200, superAdmin: 200 }),
  "PUT /api/profile/digest": signedIn({ school: 200, district: 200, admin: 200, superAdmin: 200 }),
  "GET /api/digests/preview": signedIn({ school: 403, district: 403, admin: 200, superAdmin: 200 }),
  "POST /api/digests/test": signedIn({ school: 403, district: 403, admin: 200, superAdmin: 200 }),
  "GET /api/digests/unsubscribe": everyone(400),
  "POST /api/digests/unsubscribe": everyone(400),
  // Alerts: the dashboards' scope. Lists filtered by another school are empty; an alert of
  // another school's student is missing to the caller. Bulk answers 200 to anyone signed in,
  // skipping what the caller does not see (alert-actions.db.test.ts checks which).
  "GET /api/alerts": onResource("school", SCOPED_LIST),
  "GET /api/alerts/summary": onResource("school", SCOPED_LIST),
  "GET /api/alerts.csv": onResource("school", SCOPED_LIST),
  "GET /api/students/:id/alerts": onResource("student", SCOPED_ID),
  "POST /api/alerts/:id/acknowledge": onResource("alert", SCOPED_ID),
  "POST /api/alerts/:id/resolve": onResource("alert", SCOPED_ID),
  "POST /api/alerts/:id/dismiss": onResource("alert", SCOPED_ID),
  "POST /api/alerts/:id/assign": onResource("alert", SCOPED_ID),
  "POST /api/alerts/bulk": signedIn({ school: 200, district: 200, admin: 200, superAdmin: 200 }),
};
