import { Alert, Radio, Stack, Text } from "@mantine/core";
import { type AttendanceRecordItem, meetingTypeLabel } from "@tally/contract";
import { type FormEvent, useState } from "react";
import { FormActions } from "../../../components/form-actions";
import { ModalForm } from "../../../components/modal-form";
import { errorText } from "../../../lib/api-error";
import { useCorrectAttendance } from "../api/correct-attendance";
import { displayDate } from "./display-date";

export const CORRECT_DIALOG_TITLE = "Correct attendance";

type Choice = "present" | "late" | "absent" | "excused";
const CHOICES: Array<{ value: Choice; label: string }> = [
  { value: "present", label: "Present" },
  { value: "late", label: "Late" },
  { value: "absent", label: "Absent" },
  { value: "excused", label: "Absent (excused)" },
];

const choiceOf = (r: Pick<AttendanceRecordItem, "status" | "excused">): Choice => (r.status === "absent" && r.excused ? "excused" : r.status);

/** "Mentor meeting, 10 Mar 2026 (Week 2)". */
export function meetingText(r: AttendanceRecordItem): string {
  return `${meetingTypeLabel(r.meeting_type)} meeting, ${displayDate(r.date)} (${r.formatted_week || `Week ${r.week_number}`})`;
}

/**
 * One meeting's status set right (a report's mistake, an absence excused afterwards). Excused
 * still counts as absent in the figures; the follow-up rules do not count it as missed.
 */
export function CorrectAttendanceDialog({ studentId, record, onClose }: { studentId: number; record: AttendanceRecordItem; onClose: () => void }) {
  const [choice, setChoice] = useState<Choice>(choiceOf(record));
  const correct = useCorrectAttendance(studentId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (correct.isPending) return;
    const body = choice === "excused" ? { status: "absent" as const, excused: true } : { status: choice, excused: false };
    correct.mutate({ id: record.id, body }, { onSuccess: onClose });
  };
  return (
    <ModalForm title={CORRECT_DIALOG_TITLE} onClose={onClose} onSubmit={submit}>
      <Text size="sm">{meetingText(record)}</Text>
      {correct.isError ? (
        <Alert color="red" role="alert">
          {errorText(correct.error, "The attendance could not be saved. Try again.")}
        </Alert>
      ) : null}
      <Radio.Group label="Status" value={choice} onChange={(v) => setChoice(v as Choice)}>
        <Stack gap="xs" mt="xs">
          {CHOICES.map((c) => (
            <Radio key={c.value} value={c.value} label={c.label} data-autofocus={c.value === choiceOf(record) ? true : undefined} />
          ))}
        </Stack>
      </Radio.Group>
      <Text size="xs" c="dimmed">
        Excused still counts as absent in attendance figures; the follow-up rules do not count it as a missed meeting.
      </Text>
      <FormActions label="Save" onCancel={onClose} pending={correct.isPending} disabled={choice === choiceOf(record)} />
    </ModalForm>
  );
}
