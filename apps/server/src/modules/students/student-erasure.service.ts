import type { DbExecutor } from "../../db/executor.js";
import * as repo from "./student-erasure.repository.js";

// The students module's part of an erasure (issue 32), for the erasure module, which also
// removes attendance and weekly data: every call takes the erasure's transaction.

export function lockStudents(db: DbExecutor, ids: readonly number[]): Promise<number[]> {
  return repo.lockStudents(db, ids);
}

export function runningCohortsOf(db: DbExecutor, studentId: number, today: string): Promise<string[]> {
  return repo.runningCohortsOf(db, studentId, today);
}

export function findCohortRunning(db: DbExecutor, cohortId: number, today: string): Promise<{ running: boolean } | undefined> {
  return repo.findCohortRunning(db, cohortId, today);
}

export function cohortStudentIds(db: DbExecutor, cohortId: number, afterId: number, limit: number): Promise<number[]> {
  return repo.cohortStudentIds(db, cohortId, afterId, limit);
}

export function deleteStudents(db: DbExecutor, ids: readonly number[]): Promise<{ students: number; cohorts: number; teams: number }> {
  return repo.deleteStudents(db, ids);
}

export type { ExpiredFilter } from "./student-erasure.repository.js";

export function expiredStudentIds(db: DbExecutor, f: repo.ExpiredFilter, afterId: number, limit: number): Promise<number[]> {
  return repo.expiredStudentIds(db, f, afterId, limit);
}

export function expiredStudentNames(db: DbExecutor, f: repo.ExpiredFilter, limit: number): Promise<{ students: number; names: string[] }> {
  return repo.expiredStudentNames(db, f, limit);
}
