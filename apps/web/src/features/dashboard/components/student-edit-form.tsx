import { Alert, Select, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { MESSAGES, type StudentDetail, type UpdateStudentRequest } from "@tally/contract";
import { type FormEvent, useState } from "react";
import { FormActions } from "../../../components/form-actions";
import { errorText } from "../../../lib/api-error";
import { useSchools } from "../../../lib/api/get-schools";
import { useTeams } from "../api/get-teams";
import { useUpdateStudent } from "../api/update-student";
import { bindText } from "../../../lib/text-binding";

interface Props {
  student: StudentDetail;
  /** False for school users: they stay within their own school. */
  canChooseSchool: boolean;
  /** Admins only: the e-mail and the Benefit Assignment ID identify the student in imports (mirrors the server's rule). */
  canChangeEmail: boolean;
  onDone: () => void;
}

/** Corrects a student's name, e-mail, school and team; only changed fields are sent. */
export function StudentEditForm({ student, canChooseSchool, canChangeEmail, onDone }: Props) {
  const [firstName, setFirstName] = useState(student.first_name);
  const [lastName, setLastName] = useState(student.last_name);
  const [email, setEmail] = useState(student.email ?? "");
  const [benefitId, setBenefitId] = useState(student.benefit_assignment_id ?? "");
  const [schoolId, setSchoolId] = useState<number | null>(student.school_id);
  const [teamId, setTeamId] = useState<number | null>(student.activeTeam?.id ?? null);
  const schools = useSchools(canChooseSchool);
  const teams = useTeams({ schoolId, cohortId: null }, schoolId !== null);
  const update = useUpdateStudent(student.id);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: UpdateStudentRequest = {};
    if (firstName.trim() !== student.first_name) body.first_name = firstName;
    if (lastName.trim() !== student.last_name) body.last_name = lastName;
    if (canChangeEmail && email.trim() !== (student.email ?? "")) body.email = email.trim() === "" ? null : email;
    if (canChangeEmail && benefitId.trim() !== (student.benefit_assignment_id ?? "")) body.benefit_assignment_id = benefitId.trim() || null;
    if (canChooseSchool && schoolId !== null && schoolId !== student.school_id) body.school_id = schoolId;
    if (teamId !== null && teamId !== (student.activeTeam?.id ?? null)) body.team_id = teamId;
    if (Object.keys(body).length === 0) {
      onDone();
      return;
    }
    update.mutate(body, { onSuccess: onDone });
  };

  const schoolOptions = (schools.data ?? []).map((s) => ({ value: String(s.id), label: s.name }));
  if (student.school_id !== null && !schoolOptions.some((o) => o.value === String(student.school_id))) {
    schoolOptions.unshift({ value: String(student.school_id), label: student.school_name ?? `School ${student.school_id}` });
  }

  return (
    <form onSubmit={submit} aria-label="Edit student">
      <Stack gap="sm">
        {update.isError ? (
          <Alert color="red" variant="light" role="alert">
            {errorText(update.error, "Failed to update student. Please try again.")}
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label="First name" {...bindText(firstName, setFirstName)} required maxLength={100} />
          <TextInput label="Last name" {...bindText(lastName, setLastName)} required maxLength={100} />
          <TextInput
            label="E-mail"
            type="email"
            {...bindText(email, setEmail)}
            maxLength={320}
            disabled={!canChangeEmail}
            description={canChangeEmail ? undefined : MESSAGES.studentEmailAdminOnly}
          />
          {canChangeEmail ? (
            <TextInput label="Benefit Assignment ID" description="Empty clears it" {...bindText(benefitId, setBenefitId)} maxLength={100} />
          ) : null}
          {canChooseSchool ? (
            <Select
              label="School"
              data={schoolOptions}
              value={schoolId === null ? null : String(schoolId)}
              onChange={(v) => {
                setSchoolId(v ? Number(v) : null);
                setTeamId(null);
              }}
              searchable
              limit={200}
              nothingFoundMessage="No schools"
            />
          ) : null}
          <Select
            label="Team"
            placeholder={schoolId === null ? "Choose a school first" : "Choose a team"}
            data={(teams.data ?? []).map((t) => ({ value: String(t.id), label: `${t.name} (${t.cohort_name})` }))}
            value={teamId === null ? null : String(teamId)}
            onChange={(v) => setTeamId(v ? Number(v) : null)}
            searchable
            limit={200}
            disabled={schoolId === null}
            nothingFoundMessage="No teams"
          />
        </SimpleGrid>
        <FormActions label="Save Changes" onCancel={onDone} pending={update.isPending} />
      </Stack>
    </form>
  );
}
