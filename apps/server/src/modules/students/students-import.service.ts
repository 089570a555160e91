// The students module's writes for the weekly import and its undo (the imports module calls these).
export {
  benefitIdHolders,
  deferRollups,
  refreshRollups,
  deleteCohortMemberships,
  deleteTeamMemberships,
  deleteUnreferencedStudents,
  insertCohortMemberships,
  insertStudents,
  insertTeamMemberships,
  lockStudents,
  type NewStudentRow,
  reserveStudentIds,
  restoreBenefitIds,
  storeBenefitIds,
  studentNames,
} from "./students-import.repository.js";
