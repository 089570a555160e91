import { type CreateCohortRequest, cohortWeekCount, createCohortRequestSchema } from "@tally/contract";
import { fieldErrors } from "../../../lib/form-errors";

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A cohort's five fields as typed: Add/Edit Cohort, and the weekly import's new cohort. */
export interface CohortDraft {
  name: string;
  programType: string;
  startDate: string;
  endDate: string;
  totalExpectedHours: string;
}

/**
 * The draft checked with the contract's rule before it is sent: the request, or one message
 * per field under the contract's field names (name, program_type, start_date…).
 */
export function checkCohortDraft(draft: CohortDraft): { request: CreateCohortRequest | null; errors: Record<string, string> } {
  const parsed = createCohortRequestSchema.safeParse({
    name: draft.name,
    program_type: draft.programType,
    start_date: draft.startDate,
    end_date: draft.endDate,
    // An empty box is "missing", not 0; anything else goes as typed so the rule names it.
    total_expected_hours: draft.totalExpectedHours.trim() === "" ? undefined : Number(draft.totalExpectedHours),
  });
  if (parsed.success) return { request: parsed.data, errors: {} };
  const errors = fieldErrors(parsed.error);
  // An empty field is "required", whatever the rule says of an empty value.
  if (draft.programType === "") errors.program_type = "Select a program type";
  if (draft.totalExpectedHours.trim() === "") errors.total_expected_hours = "Total expected hours is required";
  if (draft.startDate === "") errors.start_date = "Start date is required";
  if (draft.endDate === "") errors.end_date = "End date is required";
  return { request: null, errors };
}

/** The cohort's week count while its dates are typed: null until both are days and the end is after the start. */
export function draftWeekCount(startDate: string, endDate: string): number | null {
  return ISO_DATE.test(startDate) && ISO_DATE.test(endDate) && endDate > startDate ? cohortWeekCount(startDate, endDate) : null;
}
