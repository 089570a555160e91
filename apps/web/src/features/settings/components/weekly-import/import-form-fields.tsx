import { Alert, Button, Fieldset, Group, NativeSelect, Radio, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { type AdminCohortItem, IMPORT_FILE_FIELDS, IMPORT_FILE_LABELS, type ImportFileField, weekLabel } from "@tally/contract";
import { bindText } from "../../../../lib/text-binding";
import { FileDropField } from "../../../../components/file-drop-field";
import { CohortNameInput, ExpectedHoursInput, ProgramTypeSelect } from "../cohort-fields";
import { type CohortMode, cohortDates, fileSizeText, type ImportFormValues, type WeekSource, weekOf } from "./import-form-values";
import { misplacedText, type ReportKind } from "./report-kind";

interface Props {
  values: ImportFormValues;
  onChange: (patch: Partial<ImportFormValues>) => void;
  errors: Record<string, string>;
  /** The admin cohorts list; null while it loads or when it failed. */
  cohorts: AdminCohortItem[] | null;
  /** The week shown in the week box: typed, or the cohort's current week. */
  week: string;
  weekCount: number | null;
  weekSource: WeekSource;
  /** Each chosen file's report, as its header row says. */
  kinds: Partial<Record<ImportFileField, ReportKind | null>>;
  /** Puts the file of `from` in the box `to` (and the file there, if any, in `from`). */
  onSwap: (from: ImportFileField, to: ImportFileField) => void;
}

/** The fields of "Import Weekly Cohort Data" (spec section 5, "Import form"). */
const WEEK_SOURCES: Record<WeekSource, string | null> = {
  typed: null,
  file: "read from the meeting dates in the file",
  "last-completed": "the last completed week",
};

export function ImportFormFields({ values, onChange, errors, cohorts, week, weekCount, weekSource, kinds, onSwap }: Props) {
  const set = (key: keyof ImportFormValues) => (value: string) => onChange({ [key]: value });
  const dates = cohortDates(values, cohorts ?? []);
  const shownWeek = dates && weekCount !== null && Number(week) <= weekCount ? weekOf(dates.startDate, Number(week)) : null;
  return (
    <>
      <Radio.Group
        label="Import into"
        value={values.mode}
        onChange={(mode) => onChange({ mode: mode as CohortMode, weekNumber: null })}
      >
        <Group gap="lg" mt={4}>
          <Radio value="existing" label="Existing cohort" />
          <Radio value="new" label="New cohort" />
        </Group>
      </Radio.Group>
      {values.mode === "new" ? (
        <>
          <CohortNameInput value={values.cohortName} onChange={set("cohortName")} error={errors.cohortName} />
          <ProgramTypeSelect value={values.programType} onChange={set("programType")} error={errors.programType} />
          <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
            <TextInput label="Start date" type="date" required error={errors.startDate} {...bindText(values.startDate, set("startDate"))} />
            <TextInput label="End date" type="date" required error={errors.endDate} {...bindText(values.endDate, set("endDate"))} />
            <ExpectedHoursInput value={values.totalExpectedHours} onChange={set("totalExpectedHours")} error={errors.totalExpectedHours} />
          </SimpleGrid>
        </>
      ) : (
        <NativeSelect
          label="Cohort"
          required
          error={errors.cohortId}
          description={cohorts === null ? "Loading cohorts..." : undefined}
          value={values.cohortId}
          onChange={(event) => onChange({ cohortId: event.currentTarget.value, weekNumber: null })}
          data={[
            { value: "", label: "-- Select Cohort --", disabled: true },
            ...(cohorts ?? []).map((c) => ({ value: String(c.id), label: c.name })),
          ]}
        />
      )}
      <TextInput
        label="Week number"
        required
        type="number"
        inputMode="numeric"
        min={1}
        max={weekCount ?? undefined}
        step={1}
        w={{ base: "100%", xs: 200 }}
        error={errors.weekNumber}
        description={weekCount === null ? undefined : `Week 1 to ${weekCount} of this cohort`}
        {...bindText(week, set("weekNumber"))}
      />
      {shownWeek ? (
        <Group gap={6} mt={-6}>
          <Text size="sm" fw={600} data-testid="import-week-label">
            {weekLabel(shownWeek)}
          </Text>
          {WEEK_SOURCES[weekSource] ? (
            <Text size="sm" c="dimmed" data-testid="import-week-source">
              ({WEEK_SOURCES[weekSource]})
            </Text>
          ) : null}
        </Group>
      ) : null}
      <Fieldset
        legend="Reports (CSV)"
        variant="unstyled"
        p={0}
        m={0}
        styles={{ legend: { padding: 0, marginBottom: 6, fontWeight: 500, fontSize: "var(--mantine-font-size-sm)" } }}
      >
        <Stack gap="sm">
          {IMPORT_FILE_FIELDS.map((field) => {
            const kind = kinds[field] ?? null;
            const misplaced = values.files[field] ? misplacedText(field, kind) : null;
            return (
              <Stack key={field} gap={4}>
                <FileDropField
                  label={IMPORT_FILE_LABELS[field]}
                  file={values.files[field]}
                  error={errors[field]}
                  hint="Required. Drop a CSV file here or choose one (at most 10 MB)."
                  describe={(file) => `${file.name} (${fileSizeText(file.size)})`}
                  onFile={(file) => onChange({ files: { ...values.files, [field]: file } })}
                />
                {misplaced ? (
                  <Alert color="yellow" p="xs" role="status" data-testid={`misplaced-${field}`}>
                    <Group gap="sm" justify="space-between" wrap="wrap">
                      <Text size="sm">{misplaced}</Text>
                      {kind && kind !== "crm" ? (
                        <Button size="xs" variant="light" onClick={() => onSwap(field, kind)}>
                          {values.files[kind] ? `Swap with the ${IMPORT_FILE_LABELS[kind].toLowerCase()}` : `Move to ${IMPORT_FILE_LABELS[kind]}`}
                        </Button>
                      ) : null}
                    </Group>
                  </Alert>
                ) : null}
              </Stack>
            );
          })}
        </Stack>
      </Fieldset>
    </>
  );
}
