import type { DbExecutor } from "../../db/executor.js";
import { type DataScope, resolveScope, type ScopeSubject } from "./scope.js";

/** The school filters every dashboard call accepts (school_id, schoolIds, respectVisibility). */
export interface SchoolFilters {
  school_id?: number | undefined;
  schoolIds?: number[] | undefined;
  respectVisibility?: boolean | undefined;
}

/** Scope for a request's filters: school_id and schoolIds both narrow (they intersect). */
export function scopeForFilters(
  db: DbExecutor,
  user: ScopeSubject,
  filters: SchoolFilters,
): Promise<DataScope> {
  let requested: number[] | undefined = filters.schoolIds;
  if (filters.school_id !== undefined) {
    requested = requested ? requested.filter((s) => s === filters.school_id) : [filters.school_id];
  }
  return resolveScope(db, user, { schoolIds: requested, respectVisibility: filters.respectVisibility });
}
