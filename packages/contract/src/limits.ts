/** Business constants from spec section 9. */
export const LIMITS = {
  requestTimeoutMs: 15_000,
  offlineRequestTimeoutMs: 5_000,
  maxRetries: 3,
  retryBaseDelayMs: 1_000,
  profileCheckIntervalMs: 10_000,
  tokenRefreshIntervalMs: 10 * 60_000,
  healthCheckTimeoutMs: 5_000,
  healthRetryWhileOfflineMs: 15_000,
  studentsPageSize: 1000,
  /**
   * The largest GET /students page that is a view (the dashboard's grid asks 24): recorded in the
   * record of access as viewed. A larger page is a bulk read and goes through the export gate.
   */
  studentsViewPageSize: 100,
  loginHistoryPageSize: 10,
  userListPageSize: 10,
  userListPageButtons: 5,
  districtSchoolNamesShown: 5,
  schoolAccessSuggestions: 10,
  generatedPasswordLength: 12,
  minPasswordLength: 8,
  minUsernameLength: 3,
  passwordStrengthPass: 3,
  resetRedirectDelayMs: 3_000,
  bannerClearMs: 3_000,
  editSuccessCloseMs: 2_000,
  accessTokenTtlSeconds: 15 * 60,
  refreshTokenTtlDays: 14,
  resetTokenTtlMinutes: 60,
  verifyTokenTtlHours: 48,
  /** Failed sign-ins per (account, client address) in the window: slows guessing at one account, yet a stranger cannot lock its owner out from elsewhere. */
  loginFailuresPerAccount: 5,
  /** Failed sign-ins per client address across accounts in the window: slows credential stuffing from one address. */
  loginFailuresPerClient: 20,
  /** A fixed window from its first failure; refused tries do not extend it. */
  loginFailureWindowMinutes: 15,
  /** An account that signed in from an address this recently is exempt there from the per-address limit (shared school networks). */
  loginKnownAddressDays: 30,
  /** Downloads of student data or of the audit log (students CSV, PDF report, audit CSV) per user in any rolling minute; the e-mailed report has its own limit. */
  downloadsPerMinute: 30,
  /** How long the challenge of a password accepted for an account with a second factor lasts. */
  mfaChallengeTtlMinutes: 5,
  /** Wrong second-factor codes per account in the sign-in window (loginFailureWindowMinutes). */
  mfaFailuresPerAccount: 5,
  /** One-time recovery codes handed out at enrolment (and on regeneration). */
  mfaRecoveryCodeCount: 10,
  /** How long a fresh proof (POST /auth/mfa/reauth, or a single sign-on) lets a sign-in add or remove a second factor. */
  reauthFreshMinutes: 5,
} as const;

/** Ids hidden from admin and super_admin dashboards (spec section 6). */
export const DEMO_SCHOOL_ID = 123;
export const DEMO_COHORT_ID = 6;
