import { Alert, TextInput } from "@mantine/core";
import { type AdminSchoolItem, createSchoolRequestSchema, SCHOOL_DISTRICT_MAX, SCHOOL_NAME_MAX } from "@tally/contract";
import { type FormEvent, useState } from "react";
import { FormActions } from "../../../components/form-actions";
import { ModalForm } from "../../../components/modal-form";
import { ApiError, errorText } from "../../../lib/api-error";
import { fieldErrors } from "../../../lib/form-errors";
import { bindText } from "../../../lib/text-binding";
import { useCreateSchool } from "../api/create-school";
import { useUpdateSchool } from "../api/update-school";

interface Props {
  /** The school to rename; none: add a new one. */
  school?: AdminSchoolItem;
  onClose: () => void;
  /** Called with the success text once the save went through. */
  onSaved: (message: string) => void;
}

/** "Add school" and "Rename school": name and district, checked with the contract's rules. */
export function SchoolFormModal({ school, onClose, onSaved }: Props) {
  const [name, setName] = useState(school?.name ?? "");
  const [district, setDistrict] = useState(school?.district ?? "");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreateSchool();
  const update = useUpdateSchool(school?.id ?? 0);
  const save = school ? update : create;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createSchoolRequestSchema.safeParse({ name, district });
    setErrors(parsed.success ? {} : fieldErrors(parsed.error));
    if (!parsed.success) return;
    save.mutate(parsed.data, {
      onSuccess: (reply) => {
        onSaved(school ? `School "${reply.data.name}" updated successfully.` : `School "${reply.data.name}" added successfully.`);
        onClose();
      },
      // The server's 409 text names the clash; show it at the field it is about.
      onError: (error) => {
        if (error instanceof ApiError && error.status === 409) setErrors({ name: error.message });
      },
    });
  };

  const conflictShown = save.error instanceof ApiError && save.error.status === 409;
  return (
    <ModalForm title={school ? "Rename School" : "Add School"} onClose={onClose} onSubmit={submit}>
      {save.isError && !conflictShown ? (
        <Alert color="red" role="alert">
          {errorText(save.error, "Failed to save the school. Please try again.")}
        </Alert>
      ) : null}
      <TextInput
        label="School name"
        required
        maxLength={SCHOOL_NAME_MAX}
        error={errors.name}
        data-autofocus
        {...bindText(name, setName)}
      />
      <TextInput
        label="District"
        description="Optional"
        maxLength={SCHOOL_DISTRICT_MAX}
        error={errors.district}
        {...bindText(district, setDistrict)}
      />
      <FormActions label={school ? "Save Changes" : "Add School"} onCancel={onClose} pending={save.isPending} />
    </ModalForm>
  );
}
