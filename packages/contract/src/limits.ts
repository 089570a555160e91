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
  /** Failed sign-ins allowed per account, and per client address, in the window below. */
  loginFailuresPerAccount: 5,
  loginFailuresPerClient: 20,
  loginFailureWindowMinutes: 15,
} as const;

/** Ids hidden from admin and super_admin dashboards (spec section 6). */
export const DEMO_SCHOOL_ID = 123;
export const DEMO_COHORT_ID = 6;
