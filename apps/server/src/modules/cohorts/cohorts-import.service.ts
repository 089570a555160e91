// The cohorts module's reads and writes for the weekly import and its undo.
export { insertCohort } from "./cohorts.repository.js";
export { deleteCohortIfUnused, findCohort, findCohortIdByName } from "./cohorts-import.repository.js";
export type { CohortRow } from "./cohorts.repository.js";
