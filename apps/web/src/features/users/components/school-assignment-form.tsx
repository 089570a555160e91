import { Alert, Button, Group, Loader, Select, Stack, Text } from "@mantine/core";
import { MESSAGES, type UserListItem } from "@tally/contract";
import { useState } from "react";
import { errorText } from "../../../lib/api-error";
import { useSchoolOptions } from "../../../lib/api/get-schools";
import { useSetUserSchool } from "../api/set-user-school";
import { BannerAlert } from "./banner-alert";
import { useBanner } from "./use-banner";

/** A school user's one school. */
export function SchoolAssignmentForm({ user, onCancel }: { user: UserListItem; onCancel: () => void }) {
  const [schoolId, setSchoolId] = useState<number | null>(user.school_id);
  const schools = useSchoolOptions();
  const save = useSetUserSchool(user.id);
  const { banner, show, clear } = useBanner();

  if (schools.isError) {
    return (
      <Alert color="red" role="alert">
        Failed to load schools. Please try again.
      </Alert>
    );
  }
  if (!schools.data) {
    return (
      <Group justify="center" py="lg">
        <Loader size="sm" aria-label="Loading schools" />
      </Group>
    );
  }

  const submit = () => {
    if (schoolId === null) {
      show("error", MESSAGES.selectSchool);
      return;
    }
    save.mutate(schoolId, {
      onSuccess: () => show("success", MESSAGES.userUpdated),
      onError: (error) => show("error", errorText(error, "Failed to update user school assignment. Please try again.")),
    });
  };

  return (
    <Stack gap="sm">
      <Text size="sm">
        Choose the school <strong>{user.username}</strong> belongs to.
      </Text>
      <BannerAlert banner={banner} onClose={clear} />
      <Select
        label="School"
        placeholder="Select a school"
        data={schools.data.map((s) => ({ value: String(s.id), label: s.name }))}
        value={schoolId === null ? null : String(schoolId)}
        onChange={(v) => setSchoolId(v ? Number(v) : null)}
        searchable
        limit={200}
        nothingFoundMessage="No schools found"
      />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} disabled={save.isPending}>
          Close
        </Button>
        <Button onClick={submit} loading={save.isPending}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}
