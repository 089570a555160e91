import { Alert, Button, Group, Text } from "@mantine/core";
import { formatWholeNumber } from "../../../lib/whole-number";

interface Props {
  q: string;
  /** Where the search found nobody: "Fall 2025", "the current cohort, Fall 2025", "Hawks, Fall 2025". */
  place: string;
  /** Students the same search finds with the cohort (and team) left out. */
  elsewhere: number;
  /** A team was chosen too: "other cohorts" alone would not say where the others are. */
  withTeam: boolean;
  onSearchAll: () => void;
}

/**
 * A search that finds nobody in the chosen cohort, but finds students in others (issue 41):
 * said in words, with the one click that shows them, instead of an empty dashboard.
 */
export function SearchElsewhere({ q, place, elsewhere, withTeam, onSearchAll }: Props) {
  const students = elsewhere === 1 ? "1 student matches" : `${formatWholeNumber(elsewhere)} students match`;
  return (
    <Alert color="blue" variant="light" data-testid="search-elsewhere">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm">
          No students match “{q}” in {place}. {students} in other {withTeam ? "teams and cohorts" : "cohorts"}.
        </Text>
        <Button size="xs" onClick={onSearchAll}>
          Search all cohorts
        </Button>
      </Group>
    </Alert>
  );
}
