import type { AlertDetails, AlertRule, AlertSeverity, AlertState, ALERT_EVENT_KINDS } from "@tally/contract";
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

type AlertEventKind = (typeof ALERT_EVENT_KINDS)[number];

/** timestamptz: read as Date, written as Date or ISO string, defaulted by the database. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** date columns travel as YYYY-MM-DD strings on both engines. */
type DateString = string;
type Json<T> = ColumnType<T, string, string>;

export interface SchoolsTable {
  id: Generated<number>;
  name: string;
  district: string;
  created_at: Timestamp;
}

/** program_type is one of the contract's PROGRAM_TYPES (checked by the database too). */
export interface CohortsTable {
  id: Generated<number>;
  name: string;
  program_type: string;
  start_date: DateString;
  end_date: DateString;
  total_expected_hours: number | null;
  created_at: Timestamp;
}

export interface TeamsTable {
  id: Generated<number>;
  name: string;
  school_id: number;
  cohort_id: number;
  organization_description: string | null;
  project_description: string | null;
  start_date: DateString | null;
  created_at: Timestamp;
}

export interface StudentsTable {
  id: Generated<number>;
  first_name: string;
  last_name: string;
  email: string | null;
  school_id: number | null;
  benefit_assignment_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface StudentCohortsTable {
  student_id: number;
  cohort_id: number;
  joined_at: Timestamp;
}

/** Membership history: the newest joined_at is the active team, the rest are previous teams. */
export interface StudentTeamsTable {
  student_id: number;
  team_id: number;
  joined_at: Timestamp;
}

export type MeetingType = "mentor" | "advisor";
export type AttendanceStatus = "present" | "late" | "absent";

/**
 * school_id and team_id record where the student was when the meeting took place; the
 * attendance summary is grouped by them (team_id 0 = no team).
 */
export interface AttendanceRecordsTable {
  id: Generated<number>;
  student_id: number;
  cohort_id: number;
  school_id: number;
  team_id: ColumnType<number, number | undefined, number>;
  week_number: number;
  date: DateString;
  meeting_type: MeetingType;
  status: AttendanceStatus;
  /** A report's `Excused`: status stays absent (every count treats it so); the record keeps that it was excused (migration 025). */
  excused: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Maintained by statement triggers on attendance_records; never written by the app. */
export interface AttendanceSummaryTable {
  school_id: number;
  cohort_id: number;
  team_id: number;
  week_number: number;
  meeting_type: MeetingType;
  present: number;
  late: number;
  absent: number;
}

/** attendance_summary without the team: the trend when no team is chosen (migration 003). */
export interface AttendanceSchoolSummaryTable {
  school_id: number;
  cohort_id: number;
  week_number: number;
  meeting_type: MeetingType;
  present: number;
  late: number;
  absent: number;
}

/** Trigger-maintained counts (migration 003); school_key is the school id, 0 for none. */
export interface RollupSchoolStudentsTable {
  school_key: number;
  students: number;
}

export interface RollupSchoolCohortsTable {
  school_key: number;
  cohort_id: number;
  students: number;
}

/** Students per school whose newest team membership (at any school) is team_id. */
export interface RollupSchoolTeamsTable {
  school_key: number;
  team_id: number;
  students: number;
  /** The team's own school and cohort, kept current by a trigger on teams. */
  team_school_id: Generated<number>;
  team_cohort_id: Generated<number>;
}

/** Per students' school and a team's school and cohort: teams that are some students' newest. */
export interface RollupTeamCountsTable {
  school_key: number;
  team_school_id: number;
  team_cohort_id: number;
  teams: number;
}

/** Per team: at how many students' schools it is someone's newest team. */
export interface RollupTeamSpreadTable {
  team_id: number;
  school_keys: number;
}

/** Migration 031: one row, moved by every write to teams, schools or cohorts (the team list's reuse). */
export interface TeamListVersionTable {
  id: Generated<boolean>;
  version: number;
}

export interface WeeklyFlag {
  code: string;
  text: string;
}

export interface WeeklyDataTable {
  id: Generated<number>;
  student_id: number;
  cohort_id: number;
  week_number: number;
  week_start: DateString | null;
  flags: Json<WeeklyFlag[]>;
  reflection: string | null;
  advisor_notes: string | null;
  hours_reported: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  password_hash: string;
  role: "super_admin" | "admin" | "district_user" | "school_user";
  school_id: number | null;
  is_active: ColumnType<boolean, boolean | undefined, boolean>;
  session_version: ColumnType<number, number | undefined, number>;
  email_verified: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_login: NullableTimestamp;
  /** The single sign-on provider (its id in OIDC_PROVIDERS) and subject the account is linked to (migration 030). */
  oidc_provider: ColumnType<string | null, string | null | undefined, string | null>;
  oidc_subject: ColumnType<string | null, string | null | undefined, string | null>;
  /** Issue 30: the weekly digest; off from the profile or the unsubscribe link. */
  digest_enabled: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface UserSchoolsTable {
  user_id: number;
  school_id: number;
}

export interface LoginLogsTable {
  id: Generated<number>;
  user_id: number | null;
  /** What was typed, lower-cased: the account name even when no such account exists. */
  login: string;
  login_method: "username" | "email" | "oidc";
  ip_address: string;
  user_agent: string | null;
  successful: boolean;
  failure_reason: string | null;
  created_at: Timestamp;
  /** The OIDC_PROVIDERS id of a single sign-on (migration 020); null for a password sign-in. */
  provider: string | null;
  /** A single sign-on whose provider's `amr` showed two factors (migration 020). */
  multi_factor: Generated<boolean>;
}

/** One-time codes of single sign-on, exchanged by the web app for the token pair (migration 020). */
export interface OidcHandoffsTable {
  id: Generated<number>;
  code_hash: string;
  user_id: number;
  provider: string;
  multi_factor: boolean;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  /** Digest of the cookie of the browser that started the sign-in (migration 030). */
  browser_hash: string;
}

/** When a sign-in last proved its person again, for adding or removing a second factor (migration 030). */
export interface FreshProofsTable {
  /** The sign-in (refresh-token family). */
  session_id: string;
  user_id: number;
  proven_at: Timestamp;
}

/** Sign-in attempts reserved per key in a fixed window (migration 005). */
export interface LoginThrottleTable {
  /** "pair|<address>|<account>" or "address|<address>". */
  key: string;
  window_started_at: Date;
  attempts: number;
}

/** One download of student data or of the audit log (migration 017): the per-user limit counts them. */
export interface DownloadLogTable {
  user_id: number;
  at: Date;
  /** Counts against the per-minute download limit (the e-mailed report's claim does not). */
  download: Generated<boolean>;
  /** A full export's claim: kept 24 hours, counted toward the bulk-export alarm before the export answers. */
  full_export: Generated<boolean>;
}

export interface AccessLogTable {
  id: Generated<string>;
  event: string;
  at: Date;
  user_id: number;
  username: string;
  role: string;
  address: string | null;
  action: string;
  recipient: string | null;
  student_id: number;
  /** A row of a full export (filters narrowing nothing but the cohort): three in 24 h raise the alarm. */
  full_export: Generated<boolean>;
}

/** One claimed run of a scheduled job (the nightly retention): the primary key lets one instance claim it. */
export interface ScheduledRunsTable {
  job: string;
  run_on: DateString;
  claimed_at: Timestamp;
}

export interface AccessAlarmsTable {
  id: Generated<number>;
  user_id: number;
  raised_at: Date;
  students: number;
  cleared_at: Date | null;
  cleared_by: number | null;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Date | string;
  revoked_at: NullableTimestamp;
  replaced_by_id: number | null;
  /** The sign-in this token descends from; access tokens carry it as `sid`. */
  family_id: string;
  /**
   * The sign-in was made with two factors at a single sign-on provider (its `amr`); every
   * rotation keeps it, and the access tokens refreshed from it carry it as `mf`.
   */
  provider_two_factor: ColumnType<boolean, boolean | undefined, never>;
}

export type OneTimeTokenPurpose = "password_reset" | "email_verify";

export interface OneTimeTokensTable {
  id: Generated<number>;
  user_id: number;
  purpose: OneTimeTokenPurpose;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Date | string;
  used_at: NullableTimestamp;
}

/** Key-value settings: demo, features. */
export interface SettingsTable {
  key: string;
  value: Json<unknown>;
  updated_at: Timestamp;
  updated_by: number | null;
}

/** school_id null = the setting applies to all schools. No row = visible. */
export interface CohortVisibilityTable {
  id: Generated<number>;
  cohort_id: number;
  school_id: number | null;
  is_visible: boolean;
  updated_at: Timestamp;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  created_at: Timestamp;
  sent_at: NullableTimestamp;
  error: string | null;
}

/** One admin change: who, when, what, the values before and after (insert only). */
export interface AuditLogTable {
  id: Generated<number>;
  at: Timestamp;
  actor_id: number | null;
  /** A verb in the past tense of the domain: "settings.cohort-visibility.saved", "school.created"… */
  action: string;
  /** The kind of thing changed: "settings", "school", "cohort"… */
  entity: string;
  entity_id: string | null;
  before: Json<unknown | null>;
  after: Json<unknown | null>;
  /** The client's address as the request showed it (migration 014); null outside a request. */
  client_address: string | null;
}

/** What an import batch changed, so Undo can restore the state before it (migration 009). */
export interface ImportChanges {
  cohortCreated: number | null;
  studentsCreated: number[];
  teamsCreated: number[];
  /** [student_id, cohort_id] memberships the batch added (new students' ones included). */
  cohortMemberships: Array<[number, number]>;
  /** [student_id, team_id] team memberships the batch added (new students' ones included). */
  teamMemberships: Array<[number, number]>;
  attendanceCreated: number[];
  /** [id, previous status, previous updated_at]. */
  /** [id, status, updated_at, excused] as before the import; a batch older than migration 025 has no excused (it was false). */
  attendanceUpdated: Array<[number, string, string, boolean?]>;
  weeklyCreated: number[];
  weeklyUpdated: Array<{
    id: number;
    week_start: string | null;
    flags: WeeklyFlag[];
    reflection: string | null;
    advisor_notes: string | null;
    hours_reported: number | null;
    updated_at: string;
  }>;
  /**
   * [student_id, previous benefit_assignment_id, the ID stored] of the flag uploader's first
   * matches (batches before the third element have two).
   */
  benefitIds?: Array<[number, string | null] | [number, string | null, string]>;
}

export interface ImportBatchesTable {
  id: Generated<number>;
  created_at: Timestamp;
  user_id: number | null;
  cohort_id: number;
  week_number: number;
  files: Json<Array<{ field: string; name: string; size: number; sha256: string }>>;
  summary: Json<Record<string, number>>;
  created_cohort: boolean;
  kind: ColumnType<"weekly" | "flags", "weekly" | "flags" | undefined, never>;
  changes: Json<ImportChanges>;
  undone_at: NullableTimestamp;
  undone_by: number | null;
}

/** One stored live notification for a user, kept a day (migration 013). */
export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  type: "FORCE_LOGOUT" | "ERROR";
  reason: string | null;
  message: string | null;
  created_at: Timestamp;
}

/** The last notification id a user's poll returned (migration 013). */
export interface NotificationPollCursorsTable {
  user_id: number;
  last_id: number;
  polled_at: Timestamp;
}

/** One processed flag-uploader run, kept until it is confirmed or expires (migration 010). */
export interface FlagRunsTable {
  id: string;
  created_at: Timestamp;
  expires_at: Date | string;
  user_id: number | null;
  cohort_id: number;
  week_number: number;
  files: Json<Array<{ field: string; name: string; size: number; sha256: string }>>;
  rows: Json<FlagRunRow[]>;
}
export interface FlagRunRow {
  studentId: number;
  name: string;
  benefit_assignment_id: string;
  flags: WeeklyFlag[];
  matchedBy: "benefit_assignment_id" | "email" | "name";
  /** The student's CRM sessions still Enrolled (absent from runs processed before migration 028: none known). */
  crmEnrolled?: number;
}

/** Migration 028: per flag batch and student, the CRM sessions of the week still Enrolled and when the export was read. */
export interface CrmEnrolledSessionsTable {
  batch_id: number;
  student_id: number;
  cohort_id: number;
  week_number: number;
  enrolled: number;
  reported_at: Timestamp;
}

/** The TOTP key (sealed), waiting for its first code while confirmed_at is null. */
export interface MfaTotpTable {
  user_id: number;
  secret: string;
  confirmed_at: NullableTimestamp;
  last_used_step: number | null;
  created_at: Timestamp;
}

export interface MfaRecoveryCodesTable {
  user_id: number;
  code_hash: string;
  used_at: NullableTimestamp;
}

export interface MfaChallengesTable {
  id_hash: string;
  user_id: number;
  login_method: "username" | "email" | "oidc";
  /** The provider of a single sign-on (login_method "oidc"); null otherwise. */
  oidc_provider: ColumnType<string | null, string | null | undefined, string | null>;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  /** The WebAuthn challenge of a passkey sign-in, once its options were asked for. */
  webauthn_challenge: string | null;
}

export interface MfaPasskeysTable {
  credential_id: string;
  user_id: number;
  public_key: string;
  counter: ColumnType<number, number | undefined, number>;
  transports: string | null;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
}

export interface MfaPasskeyRegistrationsTable {
  user_id: number;
  challenge: string;
  expires_at: Timestamp;
}

export interface Database {
  schools: SchoolsTable;
  cohorts: CohortsTable;
  teams: TeamsTable;
  students: StudentsTable;
  student_cohorts: StudentCohortsTable;
  student_teams: StudentTeamsTable;
  attendance_records: AttendanceRecordsTable;
  attendance_summary: AttendanceSummaryTable;
  attendance_school_summary: AttendanceSchoolSummaryTable;
  rollup_school_students: RollupSchoolStudentsTable;
  rollup_school_cohorts: RollupSchoolCohortsTable;
  rollup_school_teams: RollupSchoolTeamsTable;
  rollup_team_counts: RollupTeamCountsTable;
  rollup_team_spread: RollupTeamSpreadTable;
  team_list_version: TeamListVersionTable;
  weekly_data: WeeklyDataTable;
  users: UsersTable;
  user_schools: UserSchoolsTable;
  login_logs: LoginLogsTable;
  login_throttle: LoginThrottleTable;
  oidc_handoffs: OidcHandoffsTable;
  fresh_proofs: FreshProofsTable;
  mfa_totp: MfaTotpTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
  mfa_challenges: MfaChallengesTable;
  mfa_passkeys: MfaPasskeysTable;
  mfa_passkey_registrations: MfaPasskeyRegistrationsTable;
  download_log: DownloadLogTable;
  access_log: AccessLogTable;
  access_alarms: AccessAlarmsTable;
  scheduled_runs: ScheduledRunsTable;
  refresh_tokens: RefreshTokensTable;
  one_time_tokens: OneTimeTokensTable;
  settings: SettingsTable;
  cohort_visibility: CohortVisibilityTable;
  mail_outbox: MailOutboxTable;
  audit_log: AuditLogTable;
  import_batches: ImportBatchesTable;
  crm_enrolled_sessions: CrmEnrolledSessionsTable;
  flag_runs: FlagRunsTable;
  notifications: NotificationsTable;
  notification_poll_cursors: NotificationPollCursorsTable;
  alerts: AlertsTable;
  alert_events: AlertEventsTable;
  digest_deliveries: DigestDeliveriesTable;
}

/** Issue 30: one row per student, rule, cohort and episode (migration 026 says how episodes work). */
export interface AlertsTable {
  id: Generated<number>;
  student_id: number;
  cohort_id: number;
  rule: AlertRule;
  severity: AlertSeverity;
  state: ColumnType<AlertState, AlertState | undefined, AlertState>;
  level: number;
  evidence: string;
  details: Json<AlertDetails>;
  year_start: DateString;
  raised_by_batch: number | null;
  opened_at: Timestamp;
  updated_at: Timestamp;
  condition_ended_at: NullableTimestamp;
  state_changed_at: NullableTimestamp;
  state_changed_by: number | null;
  /** The level when it was resolved or dismissed: it reopens only above it. */
  resolved_level: number | null;
  assignee_id: number | null;
  data_withdrawn: ColumnType<boolean, boolean | undefined, boolean>;
  /** The student's school, kept equal to students.school_id by triggers (migration 027). */
  school_id: ColumnType<number | null, undefined, never>;
}

export interface AlertEventsTable {
  id: Generated<number>;
  alert_id: number;
  at: Timestamp;
  kind: AlertEventKind;
  user_id: number | null;
  note: string | null;
  level: number | null;
}

/** One digest per user and week, claimed by inserting the row (exactly once across instances). */
export interface DigestDeliveriesTable {
  user_id: number;
  week_start: DateString;
  claimed_at: Timestamp;
  sent_at: NullableTimestamp;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  alerts: ColumnType<number, number | undefined, number>;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type School = Selectable<SchoolsTable>;
export type Cohort = Selectable<CohortsTable>;
export type Team = Selectable<TeamsTable>;
export type Student = Selectable<StudentsTable>;
export type AttendanceRecord = Selectable<AttendanceRecordsTable>;
export type WeeklyData = Selectable<WeeklyDataTable>;
