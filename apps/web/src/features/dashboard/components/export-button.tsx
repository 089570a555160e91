import { Button, Modal, Text } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { isAdminRole, type SessionUser } from "@tally/contract";
import { useFeatureSettings } from "../api/get-feature-settings";

/**
 * The dashboard's Export button. Mirrors the server's canExport to hide it: admins always see
 * it; school users per their school's enableExport, district users per the school they filter
 * on (else the global value). While the toggles load it stays hidden, so it never flashes up
 * and away; if their check fails the fetcher answers "on" (spec: export allowed then).
 */
export function ExportButton({ user, schoolId }: { user: SessionUser; schoolId: number | null }) {
  const admin = isAdminRole(user.role);
  const forSchool = user.role === "school_user" ? user.school_id : schoolId;
  const features = useFeatureSettings(forSchool, !admin);
  const [opened, { open, close }] = useDisclosure(false);
  if (!admin && !features.data?.enableExport) return null;
  return (
    <>
      <Button variant="default" onClick={open}>
        Export
      </Button>
      {/* The PDF report and e-mail dialog arrive with the reports issue. */}
      <Modal opened={opened} onClose={close} title="Export report" closeButtonProps={{ "aria-label": "Close" }}>
        <Text size="sm">PDF and e-mail reports of this dashboard are coming in a later release.</Text>
      </Modal>
    </>
  );
}
