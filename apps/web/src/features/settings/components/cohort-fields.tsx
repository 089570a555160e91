import { NativeSelect, TextInput } from "@mantine/core";
import { COHORT_HOURS_MAX, COHORT_NAME_MAX, PROGRAM_TYPES } from "@tally/contract";
import { bindText } from "../../../lib/text-binding";

interface FieldProps {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}

// The inputs of a cohort's own fields, in Add/Edit Cohort and in the weekly import's "New
// cohort"; each form lays them out (and the two dates) its own way.

export function CohortNameInput({ value, onChange, error }: FieldProps) {
  return <TextInput label="Cohort name" required maxLength={COHORT_NAME_MAX} error={error} data-autofocus {...bindText(value, onChange)} />;
}

export function ProgramTypeSelect({ value, onChange, error }: FieldProps) {
  return (
    <NativeSelect
      label="Program type"
      required
      error={error}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      data={[{ value: "", label: "-- Select program type --", disabled: true }, ...PROGRAM_TYPES]}
    />
  );
}

export function ExpectedHoursInput({ value, onChange, error, description }: FieldProps & { description?: string }) {
  return (
    <TextInput
      label="Total expected hours"
      required
      type="number"
      inputMode="decimal"
      min={0}
      max={COHORT_HOURS_MAX}
      step="any"
      error={error}
      description={description}
      {...bindText(value, onChange)}
    />
  );
}
