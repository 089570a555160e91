import { Alert, Group, TextInput } from "@mantine/core";
import type { AdminCohortItem } from "@tally/contract";
import { type FormEvent, useState } from "react";
import { FormActions } from "../../../components/form-actions";
import { ModalForm } from "../../../components/modal-form";
import { errorText } from "../../../lib/api-error";
import { bindText } from "../../../lib/text-binding";
import { useCreateCohort } from "../api/create-cohort";
import { useUpdateCohort } from "../api/update-cohort";
import { checkCohortDraft, draftWeekCount } from "../lib/cohort-draft";
import { CohortNameInput, ExpectedHoursInput, ProgramTypeSelect } from "./cohort-fields";

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
    const { request, errors: found } = checkCohortDraft({ name, programType, startDate, endDate, totalExpectedHours: hours });
    setErrors(found);
    if (!request) return;
    save.mutate(request, {
      onSuccess: (reply) => {
        onSaved(cohort ? `Cohort "${reply.data.name}" updated successfully.` : `Cohort "${reply.data.name}" added successfully.`);
        onClose();
      },
    });
  };

  const weeks = draftWeekCount(startDate, endDate);

  return (
    <ModalForm title={cohort ? "Edit Cohort" : "Add Cohort"} onClose={onClose} onSubmit={submit}>
      {save.isError ? (
        <Alert color="red" role="alert">
          {errorText(save.error, "Failed to save the cohort. Please try again.")}
        </Alert>
      ) : null}
      <CohortNameInput value={name} onChange={setName} error={errors.name} />
      <ProgramTypeSelect value={programType} onChange={setProgramType} error={errors.program_type} />
      <Group grow align="flex-start" wrap="wrap">
        <TextInput label="Start date" type="date" required error={errors.start_date} miw={150} {...bindText(startDate, setStartDate)} />
        <TextInput label="End date" type="date" required error={errors.end_date} miw={150} {...bindText(endDate, setEndDate)} />
      </Group>
      <ExpectedHoursInput
        value={hours}
        onChange={setHours}
        error={errors.total_expected_hours}
        description={weeks === null ? undefined : `${weeks} ${weeks === 1 ? "week" : "weeks"} from these dates`}
      />
      <FormActions label={cohort ? "Save Changes" : "Add Cohort"} onCancel={onClose} pending={save.isPending} />
    </ModalForm>
  );
}
