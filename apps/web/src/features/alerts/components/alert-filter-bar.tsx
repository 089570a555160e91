import { Button, Checkbox, Group, NativeSelect } from "@mantine/core";
import { ALERT_RULE_WORDS, ALERT_RULES, ALERT_SEVERITIES, ALERT_STATES, type AlertState } from "@tally/contract";
import { ALERT_STATE_WORDS } from "../../../components/alert-marks";
import { useCohorts } from "../../../lib/api/get-cohorts";
import { useSchoolOptions } from "../../../lib/api/get-schools";
import type { AlertFilters } from "../api/alert-filters";

interface Props {
  filters: AlertFilters;
  onChange: (next: AlertFilters) => void;
  showSchoolFilter: boolean;
}

const ANY = "";
const SEVERITY_WORDS = { urgent: "Urgent", warning: "Warning", info: "Info" } as const;
/** "Open and acknowledged" is the server's default; every state alone, or all of them. */
const STATE_CHOICES: Array<{ value: string; label: string }> = [
  { value: ANY, label: "Open and acknowledged" },
  ...ALERT_STATES.map((s) => ({ value: s, label: ALERT_STATE_WORDS[s] })),
  { value: ALERT_STATES.join(","), label: "Any state" },
];

/** The call list's filters; every change starts again at page 1. */
export function AlertFilterBar({ filters, onChange, showSchoolFilter }: Props) {
  const schools = useSchoolOptions(showSchoolFilter);
  const cohorts = useCohorts(filters.schoolId);
  const set = (patch: Partial<AlertFilters>) => onChange({ ...filters, ...patch, page: 1 });
  const num = (v: string) => (v === ANY ? null : Number(v));
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      {showSchoolFilter ? (
        <NativeSelect
          label="School"
          value={filters.schoolId === null ? ANY : String(filters.schoolId)}
          onChange={(e) => set({ schoolId: num(e.currentTarget.value), cohortId: null })}
          data={[{ value: ANY, label: "All schools" }, ...(schools.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))]}
        />
      ) : null}
      <NativeSelect
        label="Cohort"
        value={filters.cohortId === null ? ANY : String(filters.cohortId)}
        onChange={(e) => set({ cohortId: num(e.currentTarget.value) })}
        data={[{ value: ANY, label: "All cohorts" }, ...(cohorts.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))]}
      />
      <NativeSelect
        label="Rule"
        value={filters.rule ?? ANY}
        onChange={(e) => set({ rule: (e.currentTarget.value || null) as AlertFilters["rule"] })}
        data={[{ value: ANY, label: "All rules" }, ...ALERT_RULES.map((r) => ({ value: r, label: ALERT_RULE_WORDS[r] }))]}
      />
      <NativeSelect
        label="State"
        value={filters.states.join(",")}
        onChange={(e) => set({ states: e.currentTarget.value.split(",").filter(Boolean) as AlertState[] })}
        data={STATE_CHOICES}
      />
      <NativeSelect
        label="Severity"
        value={filters.severity ?? ANY}
        onChange={(e) => set({ severity: (e.currentTarget.value || null) as AlertFilters["severity"] })}
        data={[{ value: ANY, label: "All severities" }, ...ALERT_SEVERITIES.map((s) => ({ value: s, label: SEVERITY_WORDS[s] }))]}
      />
      <Checkbox
        label="Assigned to me"
        checked={filters.assignedToMe}
        onChange={(e) => set({ assignedToMe: e.currentTarget.checked })}
        mb={8}
      />
      <Button
        variant="subtle"
        onClick={() =>
          // The search is the header's, as on the dashboard: clearing the filters keeps it.
          onChange({ schoolId: null, cohortId: null, rule: null, states: [], severity: null, assignedToMe: false, q: filters.q, page: 1 })
        }
      >
        Clear filters
      </Button>
    </Group>
  );
}
