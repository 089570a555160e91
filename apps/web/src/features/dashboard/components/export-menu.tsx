import { Alert, Box, Button, Group, Loader, Menu, Stack, Text } from "@mantine/core";
import { canExport, isAdminRole, REPORT_MESSAGES, type SessionUser } from "@tally/contract";
import { useState } from "react";
import { useDownloadCsv } from "../api/download-csv";
import { useDownloadPdf } from "../api/download-pdf";
import { useFeatureSettings } from "../../../lib/feature-settings";
import type { ReportFilters } from "../api/report-filters";
import { EmailReportDialog } from "./email-report-dialog";
import { reportErrorText } from "./report-error-text";

export const CSV_ERROR = "Error generating CSV. Please try again.";

function Chevron() {
  return (
    <svg width={12} height={12} viewBox="0 0 12 12" aria-hidden="true" focusable="false">
      <path d="M2.5 4.5 6 8l3.5-3.5" fill="none" stroke="currentColor" strokeWidth={1.6} strokeLinecap="round" />
    </svg>
  );
}

interface Props {
  user: SessionUser;
  /** The dashboard's current filters, names and totals. */
  report: ReportFilters;
}

/**
 * The dashboard's Export menu: Download PDF, E-mail report, Download CSV. Applies the server's
 * rule (canExport) only to hide it: admins always see it; school users per their school's
 * enableExport, district users per the school they filter on (else the global value). While
 * the toggles load it stays hidden, so it never flashes up and away; if their check fails the
 * fetcher answers "on" (spec: export allowed then) and the server decides.
 */
export function ExportMenu({ user, report }: Props) {
  const admin = isAdminRole(user.role);
  const forSchool = user.role === "school_user" ? user.school_id : report.schoolId;
  const features = useFeatureSettings(forSchool, !admin);
  const pdf = useDownloadPdf();
  const csv = useDownloadCsv();
  const [emailOpen, setEmailOpen] = useState(false);
  if (!(features.data ? canExport(user, features.data) : admin)) return null;

  // One message at a time: starting one export clears the other's error.
  const startPdf = () => {
    csv.reset();
    pdf.mutate(report);
  };
  const startCsv = () => {
    pdf.reset();
    csv.mutate(report);
  };
  const busy = pdf.isPending ? "Generating PDF..." : csv.isPending ? "Preparing CSV..." : null;
  const failure = pdf.isError
    ? { text: reportErrorText(pdf.error, REPORT_MESSAGES.pdfError), reset: pdf.reset }
    : csv.isError
      ? { text: reportErrorText(csv.error, CSV_ERROR), reset: csv.reset }
      : null;

  return (
    <Stack gap={6} align="flex-end" maw={380}>
      {/* No focus placeholder inside role="menu": a menu may hold menu items only (axe). */}
      <Menu position="bottom-end" shadow="md" width={200} withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <Button variant="default" rightSection={<Chevron />}>
            Export
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={startPdf} disabled={pdf.isPending}>
            Download PDF
          </Menu.Item>
          <Menu.Item onClick={() => setEmailOpen(true)}>E-mail report</Menu.Item>
          <Menu.Item onClick={startCsv} disabled={csv.isPending}>
            Download CSV
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {/* Always in the page, so screen readers hear the state when it appears. */}
      <Box role="status" aria-live="polite">
        {busy ? (
          <Group gap="xs" wrap="nowrap">
            <Loader size="xs" aria-hidden />
            <Text size="sm">{busy}</Text>
          </Group>
        ) : null}
      </Box>
      {failure ? (
        <Alert color="red" role="alert" withCloseButton closeButtonLabel="Dismiss message" onClose={failure.reset}>
          {failure.text}
        </Alert>
      ) : null}
      {emailOpen ? <EmailReportDialog report={report} onClose={() => setEmailOpen(false)} /> : null}
    </Stack>
  );
}
