import { Alert, Checkbox, List, Text, Textarea } from "@mantine/core";
import { eraseStudentRequestSchema, type StudentDetail } from "@tally/contract";
import { type FormEvent, useState } from "react";
import { FormActions } from "../../../components/form-actions";
import { ModalForm } from "../../../components/modal-form";
import { ApiError, errorText } from "../../../lib/api-error";
import { fieldErrors } from "../../../lib/form-errors";
import { useEraseStudent } from "../api/erase-student";
import { studentName } from "./student-card";

export const ERASE_DIALOG_TITLE = "Erase student";

interface Props {
  student: StudentDetail;
  onClose: () => void;
  /** After the erasure: the student detail has nothing left to show. */
  onErased: () => void;
}

/**
 * Issue 32: an admin erases one student. The dialog names what goes, asks for the reason (kept
 * in the audit log) and, when the server answers that the student is in a running cohort,
 * offers to force the erasure.
 */
export function EraseStudentDialog({ student, onClose, onErased }: Props) {
  const [reason, setReason] = useState("");
  const [force, setForce] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const erase = useEraseStudent(student.id);
  const running = erase.error instanceof ApiError && erase.error.status === 409;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (erase.isPending) return;
    const parsed = eraseStudentRequestSchema.safeParse(force ? { reason, force } : { reason });
    setErrors(parsed.success ? {} : fieldErrors(parsed.error));
    if (!parsed.success) return;
    erase.mutate(parsed.data, { onSuccess: onErased });
  };

  return (
    <ModalForm title={ERASE_DIALOG_TITLE} onClose={onClose} onSubmit={submit}>
      <Text size="sm">This removes everything Tally holds about {studentName(student)}, for good:</Text>
      <List size="sm">
        <List.Item>attendance</List.Item>
        <List.Item>weekly data: hours, reflections and flags</List.Item>
        <List.Item>alerts</List.Item>
        <List.Item>advisor notes</List.Item>
        <List.Item>team and cohort memberships, and the student record</List.Item>
      </List>
      <Text size="sm" c="dimmed">
        The record of who viewed this student keeps only an anonymous number.
      </Text>
      {erase.isError ? (
        <Alert color={running ? "yellow" : "red"} role="alert">
          {errorText(erase.error, "The student could not be erased. Try again.")}
        </Alert>
      ) : null}
      <Textarea
        label="Reason"
        description="Kept in the audit log"
        required
        rows={2}
        error={errors.reason}
        value={reason}
        data-autofocus
        onChange={(e) => {
          setReason(e.currentTarget.value);
          setErrors(({ reason: _gone, ...rest }) => rest);
        }}
      />
      {running || force ? (
        <Checkbox
          label="Erase although the student is in a running cohort"
          checked={force}
          onChange={(e) => setForce(e.currentTarget.checked)}
        />
      ) : null}
      <FormActions label="Erase student" onCancel={onClose} pending={erase.isPending} disabled={running && !force} />
    </ModalForm>
  );
}
