import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ServerContext } from "../context.js";
import { accessLogRoutes } from "./access-log/access-log.routes.js";
import { alertRulesRoutes } from "./alerts/alert-rules.routes.js";
import { alertsRoutes } from "./alerts/alerts.routes.js";
import { auditRoutes } from "./audit/audit.routes.js";
import { diagnosticsRoutes } from "./health/diagnostics.routes.js";
import { healthRoutes } from "./health/health.routes.js";
import { readinessRoutes } from "./health/readiness.routes.js";
import { notificationsRoutes } from "./notifications/notifications.routes.js";
import { authRoutes } from "./auth/auth.routes.js";
import { oidcRoutes } from "./auth/oidc.routes.js";
import { mfaAuthRoutes } from "./auth/mfa.routes.js";
import { flagsRoutes } from "./flags/flags.routes.js";
import { importsRoutes } from "./imports/imports.routes.js";
import { mailRoutes } from "./mail/mail.routes.js";
import { mfaAdminRoutes } from "./mfa/mfa.routes.js";
import { attendanceRoutes } from "./attendance/attendance.routes.js";
import { attendanceEditsRoutes } from "./attendance-edits/attendance-edits.routes.js";
import { cohortsRoutes } from "./cohorts/cohorts.routes.js";
import { schoolsRoutes } from "./schools/schools.routes.js";
import { cohortVisibilityRoutes } from "./settings/cohort-visibility.routes.js";
import { demoSettingsRoutes } from "./settings/demo-settings.routes.js";
import { privacySettingsRoutes } from "./settings/privacy-settings.routes.js";
import { settingsRoutes } from "./settings/settings.routes.js";
import { studentsRoutes } from "./students/students.routes.js";
import { studentErasureRoutes } from "./erasure/erasure.routes.js";
import { studentExportRoutes } from "./student-export/student-export.routes.js";
import { retentionRoutes } from "./erasure/retention.routes.js";
import { teamsRoutes } from "./teams/teams.routes.js";
import { usersRoutes } from "./users/users.routes.js";
import { weeklyDataRoutes } from "./weekly-data/weekly-data.routes.js";
import { reportsRoutes } from "./reports/reports.routes.js";
import { digestsRoutes } from "./digests/digests.routes.js";

/** What app.ts passes every module. */
export interface ApiModuleOptions {
  ctx: ServerContext;
  /** Heartbeat period of the notification streams (default NOTIFICATION_LIMITS.heartbeatMs; tests shorten it). */
  heartbeatMs?: number | undefined;
}

/** Every domain module's routes, mounted under /api in this order (the API document's order). */
export const apiModules: Array<FastifyPluginAsyncZod<ApiModuleOptions>> = [
  healthRoutes,
  readinessRoutes,
  diagnosticsRoutes,
  notificationsRoutes,
  authRoutes,
  oidcRoutes,
  mfaAuthRoutes,
  mailRoutes,
  schoolsRoutes,
  studentsRoutes,
  studentErasureRoutes,
  studentExportRoutes,
  cohortsRoutes,
  teamsRoutes,
  weeklyDataRoutes,
  attendanceRoutes,
  attendanceEditsRoutes,
  usersRoutes,
  mfaAdminRoutes,
  settingsRoutes,
  cohortVisibilityRoutes,
  demoSettingsRoutes,
  privacySettingsRoutes,
  alertRulesRoutes,
  retentionRoutes,
  importsRoutes,
  flagsRoutes,
  reportsRoutes,
  alertsRoutes,
  auditRoutes,
  accessLogRoutes,
  digestsRoutes,
];
