/**
 * Every query key of the web app, in one place. A key is a path: each query's key starts with
 * its group's key (`students.all` begins every students query), so a mutation refreshes what
 * it changed by invalidating the group, whichever feature wrote the query. Features never spell
 * a key out; they take it from here, including the keys of another feature's data.
 */
export const queryKeys = {
  auth: {
    profile: ["auth", "profile"],
    resetToken: (token: string) => ["auth", "verify-reset-token", token] as const,
    emailToken: (token: string) => ["auth", "verify", token] as const,
    /** The single sign-on providers of the sign-in page. */
    providers: ["auth", "providers"],
    /** The signed-in person's second factor (GET /auth/mfa). */
    secondFactor: ["auth", "mfa"],
  },
  publicConfig: ["public-config"],
  audit: {
    all: ["audit"],
    page: (filters: object, page: number) => ["audit", filters, page] as const,
  },
  users: {
    /** Also the user list's own key (its cache is updated in place on (de)activation). */
    all: ["users"],
    schools: (userId: number) => ["users", userId, "schools"] as const,
    loginLogs: (userId: number, filters: object, page: number) => ["users", userId, "login-logs", filters, page] as const,
  },
  schools: {
    /** Also the key of the schools list every feature shares (lib/api/get-schools). */
    all: ["schools"],
    admin: ["schools", "admin"],
  },
  cohorts: {
    all: ["cohorts"],
    visible: (schoolId: number | null) => ["cohorts", { schoolId }] as const,
    admin: ["cohorts", "admin"],
    active: ["cohorts", "active"],
  },
  settings: {
    features: {
      all: ["settings", "features"],
      admin: ["settings", "features", "admin"],
      atSchool: (schoolId: number | null) => ["settings", "features", { schoolId }] as const,
    },
    demo: ["settings", "demo"],
    cohortVisibility: ["settings", "cohort-visibility"],
    privacy: ["settings", "privacy"],
    retentionPreview: (years: number) => ["settings", "privacy", "retention-preview", { years }] as const,
  },
  imports: {
    all: ["imports"],
    list: (limit: number, cohortId: number | null) => ["imports", { limit, cohortId }] as const,
  },
  accessLog: {
    all: ["access-log"],
    student: (studentId: number, params: object) => ["access-log", "student", studentId, params] as const,
  },
  students: {
    all: ["students"],
    list: (params: object) => ["students", "list", params] as const,
    summary: (params: object) => ["students", "summary", params] as const,
    detail: (studentId: number) => ["students", "detail", studentId] as const,
  },
  teams: {
    all: ["teams"],
    list: (filter: object) => ["teams", filter] as const,
  },
  attendance: {
    student: (studentId: number, cohortId: number | null) => ["attendance", "student", studentId, { cohortId }] as const,
    /** Every cohort's records of the student (a correction rereads them). */
    studentAll: (studentId: number) => ["attendance", "student", studentId] as const,
    trends: {
      all: ["attendance", "cohort-trends"],
      list: (params: object) => ["attendance", "cohort-trends", params] as const,
    },
  },
  alerts: {
    /** Every alert query: an import, an action or a rule change refreshes them all. */
    all: ["alerts"],
    list: (query: object) => ["alerts", "list", query] as const,
    summary: (query: object) => ["alerts", "summary", query] as const,
    student: (studentId: number) => ["alerts", "student", studentId] as const,
  },
  /** The alert rules (Admin Settings); outside the alerts group so an acknowledge does not reread them. */
  alertRules: ["alert-rules"],
  /** The signed-in person's weekly digest choice. */
  digestSetting: ["profile", "digest"],
  weeklyData: {
    all: ["weekly-data"],
    student: (studentId: number, cohortId: number | null) => ["weekly-data", studentId, { cohortId }] as const,
  },
} as const;
