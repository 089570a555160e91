import { Button, Group, Select, type SelectProps } from "@mantine/core";
import { useState } from "react";
import type { CohortItem, SchoolItem, TeamItem } from "@tally/contract";
import type { DashboardFilters } from "../api/dashboard-filters";

interface Props {
  filters: DashboardFilters;
  onChange: (next: DashboardFilters) => void;
  /** Clear Filters: every school, cohort and team (else onChange with none). */
  onClear?: () => void;
  schools: SchoolItem[];
  cohorts: CohortItem[];
  teams: TeamItem[];
  showSchoolFilter: boolean;
  /** The current cohort (running, or the latest started): said under the dropdown while it is the one shown. */
  runningCohortId?: number | null;
  /** True while narrowed option lists are still loading. */
  cohortsLoading?: boolean;
  teamsLoading?: boolean;
  /** Teams are offered once a school is chosen. */
  teamsNeedSchool?: boolean;
}

// Long lists (thousands of teams in a large district) only render the first matches.
const OPTION_LIMIT = 200;

function toId(value: string | null): number | null {
  return value ? Number(value) : null;
}

/**
 * School, cohort and team dropdowns; each choice narrows, and clearing it clears, the ones after it.
 * Choosing the option already shown keeps it (Mantine would deselect it, and the dashboard would
 * jump from the current cohort to all cohorts); the clear button is the way to clear.
 */
/**
 * A Select whose option list is first drawn when it first opens. Mantine keeps a closed list
 * mounted (hidden) and positions it on mount, which forced style and layout of the whole
 * dashboard three times in its first render (issue 29: total blocking time). Once opened, the
 * list stays mounted as before; the re-render after the first opening lets the input announce
 * the list it controls (aria-expanded, aria-controls), which Mantine learns only once it exists.
 */
function FilterSelect(props: SelectProps) {
  const [listKept, setListKept] = useState(false);
  return (
    <Select
      {...props}
      comboboxProps={{ keepMounted: listKept }}
      onDropdownOpen={() => {
        if (!listKept) setTimeout(() => setListKept(true), 0);
      }}
    />
  );
}

export function DashboardFilterBar(props: Props) {
  const { filters, onChange, schools, cohorts, teams, showSchoolFilter } = props;
  const active = filters.schoolId !== null || filters.cohortId !== null || filters.teamId !== null;
  const showCohortInTeam = filters.cohortId === null;
  return (
    <Group align="flex-end" gap="sm" wrap="wrap" role="search" aria-label="Dashboard filters">
      {showSchoolFilter ? (
        <FilterSelect
          label="School"
          placeholder="All schools"
          data={schools.map((s) => ({ value: String(s.id), label: s.name }))}
          value={filters.schoolId === null ? null : String(filters.schoolId)}
          onChange={(v) => onChange({ schoolId: toId(v), cohortId: null, teamId: null })}
          searchable
          clearable
          allowDeselect={false}
          limit={OPTION_LIMIT}
            nothingFoundMessage="No schools"
          w={{ base: "100%", xs: 220 }}
        />
      ) : null}
      <FilterSelect
        label="Cohort"
        placeholder="All cohorts"
        data={cohorts.map((c) => ({ value: String(c.id), label: c.name }))}
        description={filters.cohortId !== null && filters.cohortId === props.runningCohortId ? "The current cohort" : undefined}
        value={filters.cohortId === null ? null : String(filters.cohortId)}
        onChange={(v) => onChange({ ...filters, cohortId: toId(v), teamId: null })}
        searchable
        clearable
        allowDeselect={false}
        limit={OPTION_LIMIT}
        nothingFoundMessage="No cohorts"
        disabled={props.cohortsLoading}
        w={{ base: "100%", xs: 280 }}
      />
      <FilterSelect
        label="Team"
        placeholder={props.teamsNeedSchool ? "Choose a school first" : "All teams"}
        data={teams.map((t) => ({
          value: String(t.id),
          label: showCohortInTeam ? `${t.name} (${t.cohort_name})` : t.name,
        }))}
        value={filters.teamId === null ? null : String(filters.teamId)}
        onChange={(v) => onChange({ ...filters, teamId: toId(v) })}
        searchable
        clearable
        allowDeselect={false}
        limit={OPTION_LIMIT}
        nothingFoundMessage="No teams"
        disabled={props.teamsLoading || props.teamsNeedSchool}
        w={{ base: "100%", xs: 260 }}
      />
      <Button variant="default" onClick={() => (props.onClear ? props.onClear() : onChange({ schoolId: null, cohortId: null, teamId: null }))} disabled={!active}>
        Clear Filters
      </Button>
    </Group>
  );
}
