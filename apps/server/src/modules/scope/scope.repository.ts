import { sql } from "kysely";
import type { DbExecutor } from "../../db/executor.js";
import type { User } from "../../db/schema.js";

/** The key of the demo setting in the settings table (the settings module writes it). */
export const DEMO_SETTING_KEY = "demo";

/** One cohort visibility row (the settings module writes them). */
export interface VisibilityRow {
  cohort_id: number;
  school_id: number | null;
  is_visible: boolean;
}

/** The account's columns a request needs (not all 29: on the embedded engine each is decoded on its own). */
const CALLER_COLUMNS = ["id", "username", "email", "role", "school_id", "session_version", "is_active"] as const;

/** An account with what every authenticated request needs to work out the caller's scope. */
export interface CallerRow extends Pick<User, (typeof CALLER_COLUMNS)[number]> {
  /** user_schools rows (district users' schools), by id. */
  assigned_school_ids: number[];
  /** Every cohort visibility setting. */
  cohort_visibility: VisibilityRow[];
  /** The stored 'demo' setting (null when never saved). */
  demo_setting: unknown;
  /** Whether the sign-in the access token belongs to still has a live refresh token. */
  session_live: boolean;
  /** Whether the account has a confirmed second factor (REQUIRE_MFA_FOR_ADMINS asks). */
  mfa_enrolled: boolean;
}

/**
 * The account, its assigned schools, its sign-in's liveness, the cohort visibility settings
 * and the demo setting in one statement. It reads tables other modules own (users,
 * user_schools, refresh_tokens, cohort_visibility, settings, mfa_totp), read-only: on the embedded
 * engine every statement waits its turn in one worker, so each request pays for one round
 * trip here, not five.
 */
export async function findCaller(db: DbExecutor, userId: number, sessionId: string): Promise<CallerRow | undefined> {
  return db
    .selectFrom("users")
    .select(CALLER_COLUMNS.map((c) => `users.${c}` as const))
    .select([
      sql<boolean>`exists(select 1 from refresh_tokens rt where rt.family_id = ${sessionId} and rt.user_id = users.id and rt.revoked_at is null)`.as(
        "session_live",
      ),
      sql<number[]>`array(select us.school_id from user_schools us where us.user_id = users.id order by us.school_id)`.as(
        "assigned_school_ids",
      ),
      sql<VisibilityRow[]>`(select coalesce(json_agg(json_build_object(
          'cohort_id', v.cohort_id, 'school_id', v.school_id, 'is_visible', v.is_visible)), '[]'::json)
        from cohort_visibility v)`.as("cohort_visibility"),
      sql<unknown>`(select st.value from settings st where st.key = ${DEMO_SETTING_KEY})`.as("demo_setting"),
      sql<boolean>`exists(select 1 from mfa_totp m where m.user_id = users.id and m.confirmed_at is not null)`.as("mfa_enrolled"),
    ])
    .where("users.id", "=", userId)
    .executeTakeFirst();
}

/** The stored demo setting; undefined when never saved. */
export async function readDemoSetting(db: DbExecutor): Promise<unknown> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", DEMO_SETTING_KEY).executeTakeFirst();
  return row?.value;
}

/** The whole cohort_visibility table: one row per explicit setting, so it stays small. */
export async function listCohortVisibility(db: DbExecutor): Promise<VisibilityRow[]> {
  return db.selectFrom("cohort_visibility").select(["cohort_id", "school_id", "is_visible"]).execute();
}
