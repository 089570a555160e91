import { Alert, Stack, Text } from "@mantine/core";
import { MESSAGES, type UserListItem } from "@tally/contract";
import { useState } from "react";
import { BannerAlert } from "../../../components/banner-alert";
import { FormActions } from "../../../components/form-actions";
import { SectionLoader } from "../../../components/section-loader";
import { errorText } from "../../../lib/api-error";
import { useBanner } from "../../../lib/use-banner";
import { useSchoolOptions } from "../../../lib/api/get-schools";
import { useSetUserSchool } from "../api/set-user-school";
import { SchoolSelect } from "./school-fields";

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
    return <SectionLoader label="Loading schools" />;
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
      <SchoolSelect schools={schools.data} value={schoolId} onChange={setSchoolId} />
      <FormActions label="Save" onSave={submit} onCancel={onCancel} cancelLabel="Close" pending={save.isPending} />
    </Stack>
  );
}
