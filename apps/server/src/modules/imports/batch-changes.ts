import type { ImportChanges } from "../../db/schema.js";

/**
 * A batch's record of changes with nothing in it yet: each writer (the weekly import, the flag
 * uploader) fills in what it did, so an undo finds every list present.
 */
export function emptyBatchChanges(): ImportChanges {
  return {
    cohortCreated: null,
    studentsCreated: [],
    teamsCreated: [],
    cohortMemberships: [],
    teamMemberships: [],
    attendanceCreated: [],
    attendanceUpdated: [],
    weeklyCreated: [],
    weeklyUpdated: [],
  };
}
