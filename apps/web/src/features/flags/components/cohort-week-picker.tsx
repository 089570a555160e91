import { type CohortItem, cohortWeekCount, currentCohortWeek } from "@tally/contract";
import { Alert, Button, Group, NativeSelect } from "@mantine/core";
import { useEffect, useState } from "react";
import { SectionLoader } from "../../../components/section-loader";
import { useActiveCohorts } from "../api/get-active-cohorts";
import { todayIso } from "../lib/today";

export interface CohortWeek {
  cohort: CohortItem;
  week: number;
}

const LOAD_FAILED = "Failed to load cohorts. Please try again.";

/** The cohort (from GET /cohorts/active) and its week, defaulting to the week the cohort is in today. */
export function CohortWeekPicker({ onChange }: { onChange: (choice: CohortWeek | null) => void }) {
  const cohorts = useActiveCohorts();
  const [cohortId, setCohortId] = useState("");
  const [week, setWeek] = useState(1);
  const cohort = cohorts.data?.find((c) => String(c.id) === cohortId) ?? null;

  useEffect(() => {
    onChange(cohort ? { cohort, week } : null);
  }, [cohort, week, onChange]);

  if (cohorts.isPending) return <SectionLoader label="Loading cohorts" />;
  if (cohorts.isError) {
    return (
      <Alert color="red" role="alert" title={LOAD_FAILED}>
        <Button size="xs" variant="default" onClick={() => void cohorts.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  }

  const choose = (id: string) => {
    setCohortId(id);
    const next = cohorts.data.find((c) => String(c.id) === id);
    if (next) setWeek(currentCohortWeek(next.start_date, next.end_date, todayIso()));
  };
  const weekCount = cohort ? cohortWeekCount(cohort.start_date, cohort.end_date) : 0;
  return (
    <Group align="flex-end" gap="md">
      <NativeSelect
        label="Cohort"
        value={cohortId}
        onChange={(event) => choose(event.currentTarget.value)}
        data={[
          { value: "", label: "-- Select Cohort --" },
          ...cohorts.data.map((c) => ({ value: String(c.id), label: c.name })),
        ]}
        w={320}
        description={cohorts.data.length === 0 ? "No cohort is running, starting soon or recently ended." : undefined}
      />
      {cohort ? (
        <NativeSelect
          label="Week Number"
          value={String(week)}
          onChange={(event) => setWeek(Number(event.currentTarget.value))}
          data={Array.from({ length: weekCount }, (_, i) => ({ value: String(i + 1), label: `Week ${i + 1}` }))}
          w={160}
        />
      ) : null}
    </Group>
  );
}
