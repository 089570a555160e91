import { MESSAGES, type Role } from "@tally/contract";

/** What the Create and Edit User dialogs hold while the account is being typed in. */
export interface AccountDraft {
  username: string;
  email: string;
  role: Role | null;
  schoolId: number | null;
  schoolIds: number[];
}

/** The draft with `patch` applied; leaving a role drops the school choice that only made sense for it (spec section 4). */
export function changeDraft(draft: AccountDraft, patch: Partial<AccountDraft>): AccountDraft {
  const next = { ...draft, ...patch };
  if (patch.role === undefined) return next;
  return {
    ...next,
    schoolId: next.role === "school_user" ? next.schoolId : null,
    schoolIds: next.role === "district_user" ? next.schoolIds : [],
  };
}

/** The request's school fields: only the one the role uses is sent, the other is null. */
export function schoolChoice(draft: AccountDraft): { school_id: number | null; school_ids: number[] | null } {
  return {
    school_id: draft.role === "school_user" ? draft.schoolId : null,
    school_ids: draft.role === "district_user" ? draft.schoolIds : null,
  };
}

/**
 * Adds the school rules to the errors of a parse: zod skips the object-level rules while a
 * field is invalid, and the dialog shows every missing field at once.
 */
export function withSchoolErrors(draft: AccountDraft, errors: Record<string, string>): Record<string, string> {
  const out = { ...errors };
  if (draft.role === "school_user" && draft.schoolId === null) out.school_id ??= MESSAGES.selectSchool;
  if (draft.role === "district_user" && draft.schoolIds.length === 0) out.school_ids ??= MESSAGES.selectSchools;
  return out;
}
