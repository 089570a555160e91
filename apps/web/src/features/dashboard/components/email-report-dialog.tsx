import { Box, Button, Group, Loader, Text, TextInput, Textarea } from "@mantine/core";
import { LIMITS, REPORT_MESSAGES, sendReportRequestSchema } from "@tally/contract";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { FormActions } from "../../../components/form-actions";
import { ModalForm } from "../../../components/modal-form";
import { MutationResult } from "../../../components/mutation-result";
import { fieldErrors } from "../../../lib/form-errors";
import { bindText } from "../../../lib/text-binding";
import type { ReportFilters } from "../api/report-filters";
import { useSendReport } from "../api/send-report";
import { reportErrorText } from "./report-error-text";

export const EMAIL_DIALOG_TITLE = "E-mail Report";

/** The words for what a report covers, as a subject line and message read them. */
export function reportScopeName(report: ReportFilters): string {
  const parts = [report.schoolName ?? (report.schoolId === null ? "All schools" : "Selected school")];
  if (report.cohortName) parts.push(report.cohortName);
  if (report.teamName) parts.push(report.teamName);
  if (report.q?.trim()) parts.push(`search "${report.q.trim()}"`);
  return parts.join(", ");
}

interface Props {
  report: ReportFilters;
  onClose: () => void;
}

/**
 * E-mail report (spec §5): recipient, name, subject and message; the server attaches the PDF
 * of the dashboard's filters. Shows the success text, then closes 2 s later as Edit User does.
 */
export function EmailReportDialog({ report, onClose }: Props) {
  const scope = reportScopeName(report);
  const [recipient, setRecipient] = useState("");
  const [cc, setCc] = useState("");
  const [recipientName, setRecipientName] = useState("");
  const [subject, setSubject] = useState(`Attendance report — ${scope}`);
  const [content, setContent] = useState(`Please find attached the attendance report for ${scope}.`);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const send = useSendReport(report);

  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });
  const closeButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!send.isSuccess) return;
    // The Send button is gone: focus goes to its replacement rather than to the page.
    closeButton.current?.focus();
    const timer = setTimeout(() => closeRef.current(), LIMITS.editSuccessCloseMs);
    return () => clearTimeout(timer);
  }, [send.isSuccess]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (send.isPending || send.isSuccess) return;
    const parsed = sendReportRequestSchema.safeParse({ recipient, cc, recipientName, subject, content });
    setErrors(parsed.success ? {} : fieldErrors(parsed.error));
    if (!parsed.success) return;
    const { recipient: to, cc: copies, recipientName: name, subject: line, content: text } = parsed.data;
    send.mutate({ recipient: to, cc: copies, recipientName: name, subject: line, content: text });
  };

  return (
    <ModalForm title={EMAIL_DIALOG_TITLE} onClose={onClose} onSubmit={submit}>
      <Text size="sm" c="dimmed">
        The PDF report of {scope} is attached to the e-mail, signed with your name. Replies go to your own address.
      </Text>
      <MutationResult
        mutation={send}
        success={REPORT_MESSAGES.emailSent}
        failure={(error) => reportErrorText(error, REPORT_MESSAGES.emailError)}
      />
      <TextInput
        label="Recipient email"
        description="Several addresses: separate them with commas"
        inputMode="email"
        autoComplete="email"
        required
        error={errors.recipient}
        readOnly={send.isSuccess}
        data-autofocus
        {...bindText(recipient, (value) => {
          setRecipient(value);
          // The message was about what was there before; it goes once the field is changed.
          setErrors(({ recipient: _gone, ...rest }) => rest);
        })}
      />
      <TextInput
        label="CC"
        description="Optional. Copies to these addresses, separated by commas"
        inputMode="email"
        autoComplete="email"
        error={errors.cc}
        readOnly={send.isSuccess}
        {...bindText(cc, (value) => {
          setCc(value);
          setErrors(({ cc: _gone, ...rest }) => rest);
        })}
      />
      <TextInput
        label="Recipient name"
        description="Optional"
        autoComplete="name"
        error={errors.recipientName}
        readOnly={send.isSuccess}
        {...bindText(recipientName, setRecipientName)}
      />
      <TextInput label="Subject" error={errors.subject} readOnly={send.isSuccess} {...bindText(subject, setSubject)} />
      <Textarea
        label="Message"
        rows={4}
        error={errors.content}
        readOnly={send.isSuccess}
        value={content}
        onChange={(event) => setContent(event.currentTarget.value)}
      />
      {/* Always in the page, so screen readers hear "Sending..." when it appears. */}
      <Box role="status" aria-live="polite">
        {send.isPending ? (
          <Group gap="xs">
            <Loader size="xs" aria-hidden />
            <Text size="sm">Sending...</Text>
          </Group>
        ) : null}
      </Box>
      {send.isSuccess ? (
        <Group justify="flex-end">
          <Button ref={closeButton} onClick={onClose}>
            Close
          </Button>
        </Group>
      ) : (
        <FormActions label={send.isPending ? "Sending..." : "Send Report"} onCancel={onClose} pending={send.isPending} />
      )}
    </ModalForm>
  );
}
