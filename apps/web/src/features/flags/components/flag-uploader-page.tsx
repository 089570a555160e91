import { FLAG_UPLOAD_MESSAGES } from "@tally/contract";
import { Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { ACCESS, decideAccess } from "../../../lib/route-access";
import { useCurrentUser } from "../../../lib/auth-store";
import { FlagAccessDenied } from "./flag-access-denied";
import { CohortWeekPicker, type CohortWeek } from "./cohort-week-picker";
import { FlagUploadPanel } from "./flag-upload-panel";

/** /admin/flag-uploader: super_admin only; anyone else who reaches it sees Access Denied. */
export function FlagUploaderPage() {
  const user = useCurrentUser();
  if (decideAccess(user, ACCESS.flagUploader) !== "allow") return <FlagAccessDenied />;
  return <FlagUploader />;
}

function FlagUploader() {
  const [choice, setChoice] = useState<CohortWeek | null>(null);
  return (
    <Stack gap="md" maw={1100}>
      <Stack gap={4}>
        <Title order={1}>Flag Uploader</Title>
        <Text>Upload and process Practera and Salesforce reports to generate student flags.</Text>
      </Stack>
      <CohortWeekPicker onChange={setChoice} />
      {choice ? (
        <FlagUploadPanel cohort={choice.cohort} currentWeek={choice.week} />
      ) : (
        <Text c="dimmed">{FLAG_UPLOAD_MESSAGES.selectCohort}</Text>
      )}
    </Stack>
  );
}
