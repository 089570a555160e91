import { Alert, Group, NativeSelect, TextInput } from "@mantine/core";
import {
  type AdminCohortItem,
  COHORT_HOURS_MAX,
  COHORT_NAME_MAX,
  cohortWeekCount,
  createCohortRequestSchema,
  PROGRAM_TYPES,
} from "@tally/contract";
import { type FormEvent, useState } from "react";
import { FormActions } from "../../../components/form-actions";
import { ModalForm } from "../../../components/modal-form";
import { errorText } from "../../../lib/api-error";
import { fieldErrors } from "../../../lib/form-errors";
import { bindText } from "../../../lib/text-binding";
import { useCreateCohort } from "../api/create-cohort";
import { useUpdateCohort } from "../api/update-cohort";

interface Props {
  /** The cohort to edit; none: add a new one. */
  cohort?: AdminCohortItem;
  onClose: () => void;
  /** Called with the success text once the save went through. */
  onSaved: (message: string) => void;
}

/** "Add Cohort" and "Edit Cohort": the five fields, checked with the contract's rules before sending. */
export function CohortFormModal({ cohort, onClose, onSaved }: Props) {
  const [name, setName] = useState(cohort?.name ?? "");
  const [programType, setProgramType] = useState(cohort?.program_type ?? "");
  const [startDate, setStartDate] = useState(cohort?.start_date ?? "");
  const [endDate, setEndDate] = useState(cohort?.end_date ?? "");
  const [hours, setHours] = useState(cohort?.total_expected_hours == null ? "" : String(cohort.total_expected_hours));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreateCohort();
  const update = useUpdateCohort(cohort?.id ?? 0);
  const save = cohort ? update : create;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createCohortRequestSchema.safeParse({
      name,
      program_type: programType,
      start_date: startDate,
      end_date: endDate,
      // An empty box is "missing", not 0; anything else goes as typed so the rule names it.
      total_expected_hours: hours.trim() === "" ? undefined : Number(hours),
    });
    const found = parsed.success ? {} : fieldErrors(parsed.error);
    if (!parsed.success) {
      if (programType === "") found.program_type = "Select a program type";
      if (hours.trim() === "") found.total_expected_hours = "Total expected hours is required";
      if (startDate === "") found.start_date = "Start date is required";
      if (endDate === "") found.end_date = "End date is required";
    }
    setErrors(found);
    if (!parsed.success) return;
    save.mutate(parsed.data, {
      onSuccess: (reply) => {
        onSaved(cohort ? `Cohort "${reply.data.name}" updated successfully.` : `Cohort "${reply.data.name}" added successfully.`);
        onClose();
      },
    });
  };

  const weeks = /^\d{4}-\d{2}-\d{2}$/.test(startDate) && /^\d{4}-\d{2}-\d{2}$/.test(endDate) && endDate > startDate
    ? cohortWeekCount(startDate, endDate)
    : null;

  return (
    <ModalForm title={cohort ? "Edit Cohort" : "Add Cohort"} onClose={onClose} onSubmit={submit}>
      {save.isError ? (
        <Alert color="red" role="alert">
          {errorText(save.error, "Failed to save the cohort. Please try again.")}
        </Alert>
      ) : null}
      <TextInput
        label="Cohort name"
        required
        maxLength={COHORT_NAME_MAX}
        error={errors.name}
        data-autofocus
        {...bindText(name, setName)}
      />
      <NativeSelect
        label="Program type"
        required
        error={errors.program_type}
        value={programType}
        onChange={(event) => setProgramType(event.currentTarget.value)}
        data={[{ value: "", label: "-- Select program type --", disabled: true }, ...PROGRAM_TYPES]}
      />
      <Group grow align="flex-start" wrap="wrap">
        <TextInput label="Start date" type="date" required error={errors.start_date} miw={150} {...bindText(startDate, setStartDate)} />
        <TextInput label="End date" type="date" required error={errors.end_date} miw={150} {...bindText(endDate, setEndDate)} />
      </Group>
      <TextInput
        label="Total expected hours"
        required
        type="number"
        inputMode="decimal"
        min={0}
        max={COHORT_HOURS_MAX}
        step="any"
        error={errors.total_expected_hours}
        description={weeks === null ? undefined : `${weeks} ${weeks === 1 ? "week" : "weeks"} from these dates`}
        {...bindText(hours, setHours)}
      />
      <FormActions label={cohort ? "Save Changes" : "Add Cohort"} onCancel={onClose} pending={save.isPending} />
    </ModalForm>
  );
}
