import type { DemoSettings, Role } from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import { schoolScope } from "./scope.policy.js";
import { parseDemoSettings, type VisibilityRow } from "./scope-settings.service.js";
import { findCaller } from "./scope.repository.js";

/** The caller of an authenticated request, loaded from the database on every request. */
export interface Caller {
  id: number;
  username: string;
  email: string;
  role: Role;
  schoolId: number | null;
  sessionVersion: number;
  /** 'all' for admin and super_admin. */
  accessibleSchoolIds: number[] | "all";
  /** The cohort visibility settings, read with the account: scope resolution needs no second read. */
  cohortVisibility: VisibilityRow[];
  /** The demo setting (which school and cohort, and its toggles), read with the account too. */
  demo: DemoSettings;
  /** Whether the account has a confirmed second factor. */
  mfaEnrolled: boolean;
  /** Whether this sign-in was made with two factors at a single sign-on provider (its `amr`). */
  providerTwoFactor: boolean;
  /** The sign-in (refresh-token family) the access token names. */
  sessionId: string;
}

/** A caller as loaded, with what the token check decides on. */
export interface LoadedCaller {
  caller: Caller;
  isActive: boolean;
  /** Whether the sign-in (refresh token family) named by the token is still live. */
  sessionLive: boolean;
}

/** What a verified access token says of its sign-in. */
export interface SignInClaims {
  userId: number;
  /** The sign-in (refresh-token family). */
  sessionId: string;
  /** The signed claim that the provider vouched for two factors (`mf`). */
  providerTwoFactor: boolean;
}

/** The caller and everything its scope needs, in one round trip; undefined for an unknown account. */
export async function loadCaller(db: DbExecutor, claims: SignInClaims): Promise<LoadedCaller | undefined> {
  const row = await findCaller(db, claims.userId, claims.sessionId);
  if (!row) return undefined;
  return {
    caller: {
      id: row.id,
      username: row.username,
      email: row.email,
      role: row.role,
      schoolId: row.school_id,
      sessionVersion: row.session_version,
      accessibleSchoolIds: schoolScope(row.role, row.school_id, row.assigned_school_ids),
      cohortVisibility: row.cohort_visibility,
      demo: parseDemoSettings(row.demo_setting),
      mfaEnrolled: row.mfa_enrolled,
      providerTwoFactor: claims.providerTwoFactor,
      sessionId: claims.sessionId,
    },
    isActive: row.is_active,
    sessionLive: row.session_live,
  };
}
