import { z } from "zod";
import { dbIdSchema, MAX_DB_ID } from "./common.js";

/*
 * Query parameters: the rule for every new one.
 *
 * A query parameter is named in camelCase after what it holds (cohortId, teamId, meetingType,
 * startDate, respectVisibility); a list is one comma-separated parameter with a plural name
 * (schoolIds=1,2,3); a yes/no is true or false. The snake_case names the product spec fixes
 * stay accepted as they are, because they are the public contract, and are never copied into
 * a new parameter: school_id on the data calls and the settings calls (school_name beside it
 * on the trend call), start_date and end_date on the login history.
 *
 * The dashboard filter set below travels as one type, DashboardFilter: the web writes it to
 * query parameters with dashboardFilterParams (below) and the server reads it back with one
 * helper (parseDashboardFilter in the scope module), so the school filter keeps one name,
 * `schoolIds`, everywhere between the filter bar and the SQL.
 */

/** `schoolIds=1,2,3`; an empty value means "no filter". */
export const schoolIdListSchema = z
  .string()
  .max(10_000)
  .transform((v, ctx) => {
    const parts = v.split(",").map((p) => p.trim()).filter(Boolean);
    const ids: number[] = [];
    for (const part of parts) {
      const n = Number(part);
      if (!/^\d+$/.test(part) || !Number.isSafeInteger(n) || n < 1 || n > MAX_DB_ID) {
        ctx.addIssue({ code: "custom", message: "schoolIds must be a comma-separated list of school ids" });
        return z.NEVER;
      }
      ids.push(n);
    }
    return ids.length > 0 ? ids : undefined;
  });

/** `true`/`false` in a query string. */
export const queryBooleanSchema = z
  .enum(["true", "false", "1", "0"], { error: "must be true or false" })
  .transform((v) => v === "true" || v === "1");

/**
 * Every filter a dashboard call may take, with its name on the wire. Each call's query schema
 * picks the ones it takes; the filters narrow the caller's scope, never widen it.
 */
export const dashboardFilterQuerySchema = z.object({
  /** One school (the spec's name). With schoolIds too, both narrow: the two intersect. */
  school_id: dbIdSchema.optional(),
  schoolIds: schoolIdListSchema.optional(),
  /** Admins may ask to see the dashboard as school users do; school and district users always do. */
  respectVisibility: queryBooleanSchema.optional(),
  cohortId: dbIdSchema.optional(),
  /** Students whose current team is this one; trends of this team. */
  teamId: dbIdSchema.optional(),
  /**
   * Search text: a student whose name, read as the import reads names (accents, case, spaces,
   * "Last, First"), starts with it either way round; or any part of a cohort, team or school name.
   */
  q: z.string().trim().max(200).optional(),
});
/** The dashboard filters as a route receives them (parsed, wire names). */
export type DashboardFilterQuery = z.output<typeof dashboardFilterQuerySchema>;

/** The dashboard filters as query parameters, before parsing: what the web sends. */
export type DashboardFilterParams = { [K in keyof DashboardFilterQuery]?: string | number | boolean | undefined };

/** The dashboard filter set with one name per filter: what the web asks for and what the server's scope applies. */
export interface DashboardFilter {
  /** Narrow to these schools (none when empty); absent = every school the caller may see. */
  schoolIds?: readonly number[] | undefined;
  cohortId?: number | undefined;
  teamId?: number | undefined;
  /** Search text; empty = none. */
  q?: string | undefined;
  respectVisibility?: boolean | undefined;
}

/**
 * The query parameters for a filter (what the web sends): one school goes as the spec's
 * `school_id`, several as `schoolIds`. An empty school list reads as no school filter on the
 * wire, so it is sent as none; the server narrows to the caller's schools either way.
 */
export function dashboardFilterParams(filter: DashboardFilter): DashboardFilterParams {
  const schools = filter.schoolIds ?? [];
  return {
    school_id: schools.length === 1 ? schools[0] : undefined,
    schoolIds: schools.length > 1 ? schools.join(",") : undefined,
    respectVisibility: filter.respectVisibility,
    cohortId: filter.cohortId,
    teamId: filter.teamId,
    q: filter.q?.trim() || undefined,
  };
}
