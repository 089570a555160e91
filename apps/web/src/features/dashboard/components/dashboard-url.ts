import type { CohortItem } from "@tally/contract";
import { useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router";
import type { DashboardFilters } from "../api/dashboard-filters";

// The dashboard's filters live in its URL (`?school=…&cohort=…&team=…&q=…`): a reload, Back,
// a bookmark or a link sent to a colleague opens the same view. No `cohort` means the running
// cohort (between cohorts, the latest); `cohort=all` means every cohort.

export const ALL_COHORTS = "all";

/** What the URL asks for; `cohort` undefined = the running cohort (the default). */
export interface UrlFilters {
  schoolId: number | null;
  cohort: number | typeof ALL_COHORTS | undefined;
  teamId: number | null;
  q: string;
}

function idParam(value: string | null): number | null {
  if (!value || !/^\d{1,9}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}

export function readUrlFilters(params: URLSearchParams): UrlFilters {
  const cohort = params.get("cohort");
  return {
    schoolId: idParam(params.get("school")),
    cohort: cohort === ALL_COHORTS ? ALL_COHORTS : (idParam(cohort) ?? undefined),
    teamId: idParam(params.get("team")),
    q: params.get("q") ?? "",
  };
}

/** The URL's query for the filters chosen in the bar (the search text kept as it is). */
export function writeUrlFilters(params: URLSearchParams, filters: DashboardFilters, cohortIsDefault: boolean): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (key: string, value: string | null) => (value === null ? next.delete(key) : next.set(key, value));
  set("school", filters.schoolId === null ? null : String(filters.schoolId));
  set("cohort", cohortIsDefault ? null : filters.cohortId === null ? ALL_COHORTS : String(filters.cohortId));
  set("team", filters.teamId === null ? null : String(filters.teamId));
  return next;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** Today as YYYY-MM-DD in the reader's time zone. */
function today(now = new Date()): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Latest start first. */
const byStart = (a: CohortItem, b: CohortItem) => b.start_date.localeCompare(a.start_date) || b.id - a.id;

/**
 * The cohort a coordinator means by default: the one running today (the latest to start,
 * when several are); between cohorts, the latest to have started; before any, none.
 */
export function runningCohort(cohorts: readonly CohortItem[], now = new Date()): CohortItem | null {
  const day = today(now);
  const started = cohorts.filter((c) => c.start_date <= day);
  const running = started.filter((c) => day <= c.end_date).sort(byStart);
  return running[0] ?? started.sort(byStart)[0] ?? null;
}

const STORE_PREFIX = "tally.dashboard-view:";

/**
 * Keeps the filters across a trip to another screen: the query is remembered per dashboard
 * path (for the browser tab), and arriving at that dashboard with no query at all (the
 * navigation's plain link) brings it back. A query in the URL always wins; clearing the
 * filters on the page clears the memory too.
 */
export function useRememberedDashboardView(): void {
  const location = useLocation();
  const navigate = useNavigate();
  const key = `${STORE_PREFIX}${location.pathname}`;
  const query = location.search.replace(/^\?/, "");
  const arrived = useRef<string | null>(null);
  useEffect(() => {
    const firstLook = arrived.current !== key;
    arrived.current = key;
    try {
      const stored = sessionStorage.getItem(key);
      if (firstLook && !query && stored) {
        void navigate({ pathname: location.pathname, search: `?${stored}` }, { replace: true });
        return;
      }
      if (query) sessionStorage.setItem(key, query);
      else sessionStorage.removeItem(key);
    } catch {
      // Storage refused (private mode): the URL alone carries the view.
    }
  }, [key, query, navigate, location.pathname]);
}
