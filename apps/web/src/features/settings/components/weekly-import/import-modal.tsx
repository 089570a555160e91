import { Alert, Button, Group, Stack } from "@mantine/core";
import { IMPORT_MESSAGES, type ImportPreview as Preview, type ImportSummary } from "@tally/contract";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { ModalShell } from "../../../../components/modal-shell";
import { useAdminCohorts } from "../../api/get-admin-cohorts";
import { useCommitWeeklyData } from "../../api/commit-weekly-data";
import { usePreviewWeeklyData } from "../../api/preview-weekly-data";
import type { UploadProgress } from "../../../../lib/upload-with-progress";
import { draftWeekCount } from "../../lib/cohort-draft";
import { ImportFormFields } from "./import-form-fields";
import {
  cohortDates,
  EMPTY_IMPORT_FORM,
  effectiveWeek,
  type ImportFormValues,
  importFormData,
  validateImportForm,
} from "./import-form-values";
import { ImportPreview, SUMMARY_LABELS } from "./import-preview";
import { ImportProgress, type ImportProgressState, NO_PROGRESS } from "./import-progress";

export const IMPORT_TITLE = "Import Weekly Cohort Data";

interface Props {
  onClose: () => void;
  /** Called with the success text (the summary counts) once the commit went through. */
  onCommitted: (message: string) => void;
}

/** The commit's success text: every summary count, named. */
export function committedText(summary: ImportSummary): string {
  const counts = SUMMARY_LABELS.map(([key, label]) => `${label}: ${summary[key]}`).join(" · ");
  return `Weekly data imported successfully. ${counts}.`;
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === "AbortError";
const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : "Unknown error");

/**
 * "Import Weekly Cohort Data": the form, then "Preview Upload Summary", then the commit. The
 * form stays mounted (hidden) behind the preview so "Back to Edit Form" finds the chosen files.
 */
export function ImportModal({ onClose, onCommitted }: Props) {
  const cohortsQuery = useAdminCohorts();
  const cohorts = cohortsQuery.data ?? null;
  const [values, setValues] = useState<ImportFormValues>(EMPTY_IMPORT_FORM);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<Preview | null>(null);
  const [progress, setProgress] = useState<ImportProgressState>(NO_PROGRESS);
  const [failure, setFailure] = useState<string | null>(null);
  const previewCall = usePreviewWeeklyData();
  const commitCall = useCommitWeeklyData();
  const running = useRef<AbortController | null>(null);
  const previewHeading = useRef<HTMLHeadingElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const [attempts, setAttempts] = useState(0);

  // A refused form puts the cursor on the first field to mend, its message read with it.
  useEffect(() => {
    if (attempts > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempts]);

  // Closing the dialog mid-preview stops the upload.
  useEffect(() => () => running.current?.abort(), []);
  useEffect(() => {
    // The new view starts at its top, its heading announced, not where the form was scrolled to.
    const heading = previewHeading.current;
    if (!preview || !heading) return;
    heading.focus({ preventScroll: true });
    heading.scrollIntoView?.({ block: "start" });
  }, [preview]);

  const week = effectiveWeek(values, cohorts ?? []);
  const dates = cohortDates(values, cohorts ?? []);
  const weekCount = dates ? draftWeekCount(dates.startDate, dates.endDate) : null;
  const busy = previewCall.isPending || commitCall.isPending;

  /**
   * The upload's body and progress handler. Only a preview can be cancelled: a commit the
   * server may already be writing is left to finish (its result then refreshes the lists).
   */
  const start = (cancellable: boolean) => {
    running.current?.abort();
    running.current = cancellable ? new AbortController() : null;
    setProgress(NO_PROGRESS);
    setFailure(null);
    return {
      form: importFormData(values, week),
      signal: running.current?.signal,
      onProgress: (p: UploadProgress) =>
        setProgress((old) => (p.kind === "upload" ? { ...old, percent: p.percent } : { percent: 100, stage: p.stage })),
    };
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = validateImportForm(values, week, cohorts ?? []);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setAttempts((n) => n + 1);
      return;
    }
    previewCall.mutate(start(true), {
      onSuccess: (reply) => setPreview(reply),
      onError: (error) => {
        if (!isAbort(error)) setFailure(IMPORT_MESSAGES.previewFailed(messageOf(error)));
      },
    });
  };

  const confirm = () => {
    if (!preview || busy) return;
    if (preview.processedStudentDetails.length === 0) {
      setFailure(IMPORT_MESSAGES.noData);
      return;
    }
    commitCall.mutate(start(false), {
      onSuccess: (reply) => {
        onCommitted(committedText(reply.summary));
        onClose();
      },
      onError: (error) => {
        if (!isAbort(error)) setFailure(IMPORT_MESSAGES.commitFailed(messageOf(error)));
      },
    });
  };

  const backToForm = () => {
    setPreview(null);
    setFailure(null);
  };

  const failureAlert = failure ? (
    <Alert color="red" role="alert" data-testid="import-error">
      {failure}
    </Alert>
  ) : null;

  return (
    // While a commit runs the dialog stays open: its outcome must be seen.
    <ModalShell title={IMPORT_TITLE} onClose={commitCall.isPending ? () => {} : onClose} size={preview ? "78rem" : "lg"}>
      <form ref={formRef} onSubmit={submit} noValidate aria-label={IMPORT_TITLE} hidden={preview !== null}>
        <Stack gap="sm">
          <ImportFormFields
            values={values}
            onChange={(patch) => setValues((old) => ({ ...old, ...patch }))}
            errors={errors}
            cohorts={cohorts}
            week={week}
            weekCount={weekCount}
          />
          {previewCall.isPending ? <ImportProgress progress={progress} /> : null}
          {/* Beside the button that was pressed, not above a long form scrolled out of view. */}
          {preview ? null : failureAlert}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {previewCall.isPending ? "Processing..." : "Preview Import"}
            </Button>
          </Group>
        </Stack>
      </form>
      {preview ? (
        <Stack gap="sm">
          <ImportPreview preview={preview} headingRef={previewHeading} />
          {commitCall.isPending ? <ImportProgress progress={progress} /> : null}
          {failureAlert}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={backToForm} disabled={busy}>
              Back to Edit Form
            </Button>
            <Button onClick={confirm} disabled={busy}>
              {commitCall.isPending ? "Committing..." : "Confirm & Save Data"}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </ModalShell>
  );
}
