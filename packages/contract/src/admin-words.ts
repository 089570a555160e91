// Issue 29 "Human words, not codes": the codes the server stores in the login history and the
// audit log, each with the words the admin screens show. The server's types are these unions,
// so a new code does not compile until it has words here.

/** Why a sign-in failed, as `login_logs.failure_reason` stores it. */
export const LOGIN_FAILURE_REASONS = [
  "wrong_password",
  "unknown_user",
  "inactive",
  "rate_limited",
  "demo_off",
  "sso_required",
  "email_not_verified",
  "domain_not_allowed",
  "sso_no_flow",
  "sso_no_id_token",
  "sso_rejected",
  "wrong_mfa_code",
  "mfa_rate_limited",
  "sso_email_not_accepted",
  "sso_linked_elsewhere",
] as const;
export type LoginFailureReason = (typeof LOGIN_FAILURE_REASONS)[number];

export const LOGIN_FAILURE_WORDS: Record<LoginFailureReason, string> = {
  wrong_password: "Wrong password",
  unknown_user: "No account with this username or e-mail",
  inactive: "Account deactivated",
  rate_limited: "Too many attempts, locked for a while",
  demo_off: "Demo school switched off",
  sso_required: "Password refused: this account signs in with single sign-on",
  email_not_verified: "Single sign-on: the provider has not verified the e-mail address",
  domain_not_allowed: "Single sign-on: e-mail domain not allowed for this provider",
  sso_no_flow: "Single sign-on: the sign-in was not started here or took too long",
  sso_no_id_token: "Single sign-on: the provider sent no identity",
  sso_rejected: "Single sign-on: the provider's answer was refused",
  wrong_mfa_code: "Wrong two-step code",
  mfa_rate_limited: "Too many two-step codes, locked for a while",
  sso_email_not_accepted: "Single sign-on: the provider's e-mail address is not in plain form",
  sso_linked_elsewhere: "Single sign-on: the account is linked to another provider account",
};

/** Words for a stored failure reason; one stored before these codes is shown as it was written. */
export function loginFailureText(reason: string | null): string {
  if (reason === null) return "-";
  return (LOGIN_FAILURE_WORDS as Record<string, string | undefined>)[reason] ?? reason;
}

/** Every action the audit log records (`audit_log.action`). */
export const AUDIT_ACTIONS = [
  "user.created",
  "user.updated",
  "user.deactivated",
  "user.reactivated",
  "user.school.changed",
  "user.school_access.changed",
  "user.password.set",
  "user.password_reset.sent",
  "user.digest.changed",
  "user.digest.test_sent",
  "school.created",
  "school.updated",
  "cohort.created",
  "cohort.updated",
  "student.updated",
  "student.erased",
  "attendance.updated",
  "cohort.students_erased",
  "import.committed",
  "import.undone",
  "flags.imported",
  "export.csv",
  "export.pdf",
  "export.data",
  "settings.features.saved",
  "mfa.totp.enrolled",
  "mfa.totp.removed",
  "mfa.recovery_code.used",
  "mfa.recovery_codes.regenerated",
  "mfa.reset",
  "mfa.passkey.registered",
  "privacy.alarm.raised",
  "privacy.alarm.cleared",
  "privacy.retention.run",
  "alert.acknowledged",
  "alert.resolved",
  "alert.dismissed",
  "alert.assigned",
  // The two below are spelled as the spec's settings and report e-mail entries have them; what
  // was changed or sent is the entity's words.
  "update",
  "send",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ACTION_WORDS: Record<AuditAction, string> = {
  "user.created": "Created user",
  "user.updated": "Changed user",
  "user.deactivated": "Deactivated user",
  "user.reactivated": "Reactivated user",
  "user.school.changed": "Changed school of user",
  "user.school_access.changed": "Changed school access of user",
  "user.password.set": "Set password of user",
  "user.password_reset.sent": "Sent password reset to user",
  "user.digest.changed": "Changed weekly digest of user",
  "user.digest.test_sent": "Sent test digest to user",
  "school.created": "Created school",
  "school.updated": "Changed school",
  "cohort.created": "Created cohort",
  "cohort.updated": "Changed cohort",
  "student.updated": "Changed student",
  "student.erased": "Erased student",
  "attendance.updated": "Corrected attendance",
  "cohort.students_erased": "Erased students of cohort",
  "import.committed": "Imported week",
  "import.undone": "Undid import",
  "flags.imported": "Imported flags",
  "export.csv": "Exported students as CSV",
  "export.pdf": "Exported report as PDF",
  "export.data": "Read report data (every student)",
  "settings.features.saved": "Changed feature settings",
  "mfa.totp.enrolled": "Turned on two-step sign-in",
  "mfa.totp.removed": "Turned off two-step sign-in",
  "mfa.recovery_code.used": "Signed in with a recovery code",
  "mfa.recovery_codes.regenerated": "Made new recovery codes",
  "mfa.reset": "Reset two-step sign-in of user",
  "mfa.passkey.registered": "Added a passkey",
  "privacy.alarm.raised": "Bulk-export alarm raised",
  "privacy.alarm.cleared": "Bulk-export alarm cleared",
  "privacy.retention.run": "Ran retention",
  "alert.acknowledged": "Acknowledged alert",
  "alert.resolved": "Resolved alert",
  "alert.dismissed": "Dismissed alert",
  "alert.assigned": "Assigned alert",
  update: "Changed",
  send: "Sent",
};

/** Every kind of thing the audit log records a change of (`audit_log.entity`). */
export const AUDIT_ENTITIES = [
  "user",
  "school",
  "cohort",
  "student",
  "import_batch",
  "settings",
  "cohort_visibility",
  "student_data",
  "report_email",
  "alert",
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

export const AUDIT_ENTITY_WORDS: Record<AuditEntity, string> = {
  user: "User",
  school: "School",
  cohort: "Cohort",
  student: "Student",
  import_batch: "Import",
  settings: "Settings",
  cohort_visibility: "Cohort visibility",
  student_data: "Student data",
  report_email: "Report e-mail",
  alert: "Alert",
};

const wordsOf = <T extends string>(table: Record<T, string>, code: string): string | undefined =>
  (table as Record<string, string | undefined>)[code];

/** "Created user", "Changed cohort visibility", "Sent report e-mail"; an unknown code as stored. */
export function auditActionText(action: string, entity: string): string {
  const words = wordsOf(AUDIT_ACTION_WORDS, action) ?? action;
  if (action === "update" || action === "send") return `${words} ${(wordsOf(AUDIT_ENTITY_WORDS, entity) ?? entity).toLowerCase()}`;
  return words;
}

/** "Cohort visibility"; an unknown code as stored. */
export function auditEntityText(entity: string): string {
  return wordsOf(AUDIT_ENTITY_WORDS, entity) ?? entity;
}
