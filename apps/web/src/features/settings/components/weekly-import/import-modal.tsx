import { Alert, Button, Group, Stack } from "@mantine/core";
import {
  IMPORT_FILE_FIELDS,
  IMPORT_MESSAGES,
  type ImportCommit,
  type ImportFileField,
  type ImportPreview as Preview,
} from "@tally/contract";
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
  runningCohort,
  validateImportForm,
  type WeekSource,
  withProgramDefaults,
} from "./import-form-values";
import { ImportPreview } from "./import-preview";
import { ImportProgress, type ImportProgressState, NO_PROGRESS } from "./import-progress";
import { committedText } from "./import-result-text";
import { meetingDates, weekOfDates } from "./file-week";
import { headerLineOf, type ReportKind, reportKindOf, textOf } from "./report-kind";
import { StickyFooter } from "./sticky-footer";
import { WeekMismatchConfirm } from "./week-mismatch-confirm";

export const IMPORT_TITLE = "Import Weekly Cohort Data";

/** What the section shows once a commit went through: the text, and the cohort to open on the dashboard. */
export interface ImportDone {
  text: string;
  cohortId: number;
}

interface Props {
  onClose: () => void;
  /** Called once the commit went through. */
  onCommitted: (done: ImportDone) => void;
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
  const [typed, setValues] = useState<ImportFormValues>(EMPTY_IMPORT_FORM);
  // Until one is chosen, the running cohort (New cohort stays one click away).
  const running = typed.cohortId === "" && cohorts ? runningCohort(cohorts) : null;
  const values = running ? { ...typed, cohortId: String(running.id) } : typed;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<Preview | null>(null);
  const [progress, setProgress] = useState<ImportProgressState>(NO_PROGRESS);
  const [failure, setFailure] = useState<string | null>(null);
  const [kinds, setKinds] = useState<Partial<Record<ImportFileField, ReportKind | null>>>({});
  /** The meeting dates of the chosen meeting report, read in the browser to propose its week. */
  const [meetingDays, setMeetingDays] = useState<{ file: File; dates: string[] } | null>(null);
  /** Confirm pressed on a preview whose dates are mostly of another week: asked once more. */
  const [confirmingWeek, setConfirmingWeek] = useState(false);
  const previewCall = usePreviewWeeklyData();
  const commitCall = useCommitWeeklyData();
  const upload = useRef<AbortController | null>(null);
  const previewHeading = useRef<HTMLHeadingElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const [attempts, setAttempts] = useState(0);

  // A refused form puts the cursor on the first field to mend, its message read with it.
  useEffect(() => {
    if (attempts > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempts]);

  // Each chosen file's header row says which report it is, so one in the wrong box is caught before the upload.
  useEffect(() => {
    let live = true;
    for (const field of IMPORT_FILE_FIELDS) {
      const file = values.files[field];
      if (!file) continue;
      headerLineOf(file)
        .then((line) => live && setKinds((old) => ({ ...old, [field]: reportKindOf(line) })))
        .catch(() => live && setKinds((old) => ({ ...old, [field]: null })));
    }
    const meeting = values.files.attendanceReport;
    if (meeting) {
      textOf(meeting)
        .then((text) => live && setMeetingDays({ file: meeting, dates: meetingDates(text) }))
        .catch(() => live && setMeetingDays(null));
    }
    return () => {
      live = false;
    };
  }, [values.files]);

  // Closing the dialog mid-preview stops the upload.
  useEffect(() => () => upload.current?.abort(), []);
  useEffect(() => {
    // The new view starts at its top, its heading announced, not where the form was scrolled to.
    const heading = previewHeading.current;
    if (!preview || !heading) return;
    heading.focus({ preventScroll: true });
    heading.scrollIntoView?.({ block: "start" });
  }, [preview]);

  const dates = cohortDates(values, cohorts ?? []);
  const fileWeek =
    dates && meetingDays && meetingDays.file === values.files.attendanceReport ? weekOfDates(meetingDays.dates, dates.startDate, dates.endDate) : null;
  const week = effectiveWeek(values, cohorts ?? [], undefined, fileWeek);
  const weekSource: WeekSource = values.weekNumber !== null ? "typed" : fileWeek !== null ? "file" : "last-completed";
  const weekCount = dates ? draftWeekCount(dates.startDate, dates.endDate) : null;
  const busy = previewCall.isPending || commitCall.isPending;
  const cohortName = values.mode === "new" ? values.cohortName.trim() : (cohorts ?? []).find((c) => String(c.id) === values.cohortId)?.name ?? "";

  /**
   * The upload's body and progress handler. Only a preview can be cancelled: a commit the
   * server may already be writing is left to finish (its result then refreshes the lists).
   */
  const start = (cancellable: boolean, weekToSend = week) => {
    upload.current?.abort();
    upload.current = cancellable ? new AbortController() : null;
    setProgress(NO_PROGRESS);
    setFailure(null);
    return {
      form: importFormData(values, weekToSend),
      signal: upload.current?.signal,
      onProgress: (p: UploadProgress) =>
        setProgress((old) => (p.kind === "upload" ? { ...old, percent: p.percent } : { percent: 100, stage: p.stage })),
    };
  };

  const runPreview = (weekToSend = week) => {
    setConfirmingWeek(false);
    previewCall.mutate(start(true, weekToSend), {
      onSuccess: (reply) => setPreview(reply),
      onError: (error) => {
        if (!isAbort(error)) setFailure(IMPORT_MESSAGES.previewFailed(messageOf(error)));
      },
    });
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
    runPreview();
  };

  /** The one-click fix of a week mismatch: the suggested week, previewed again. */
  const switchWeek = (n: number) => {
    if (busy) return;
    setValues((old) => ({ ...old, weekNumber: String(n) }));
    runPreview(String(n));
  };

  const commit = () => {
    commitCall.mutate(start(false), {
      onSuccess: (reply: ImportCommit) => {
        onCommitted({ text: committedText(reply, cohortName), cohortId: reply.cohortId });
        onClose();
      },
      onError: (error) => {
        if (!isAbort(error)) setFailure(IMPORT_MESSAGES.commitFailed(messageOf(error)));
      },
    });
  };

  const confirm = () => {
    if (!preview || busy || preview.unchanged) return;
    if (preview.processedStudentDetails.length === 0) {
      setFailure(IMPORT_MESSAGES.noData);
      return;
    }
    if (preview.weekMismatch && !confirmingWeek) {
      setConfirmingWeek(true);
      return;
    }
    commit();
  };

  const backToForm = () => {
    setPreview(null);
    setFailure(null);
    setConfirmingWeek(false);
  };

  const swap = (from: ImportFileField, to: ImportFileField) =>
    setValues((old) => ({ ...old, files: { ...old.files, [from]: old.files[to], [to]: old.files[from] } }));

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
            onChange={(patch) => setValues((old) => withProgramDefaults(running ? { ...old, cohortId: String(running.id) } : old, patch))}
            errors={errors}
            cohorts={cohorts}
            week={week}
            weekCount={weekCount}
            weekSource={weekSource}
            kinds={kinds}
            onSwap={swap}
          />
          <StickyFooter>
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
          </StickyFooter>
        </Stack>
      </form>
      {preview ? (
        <Stack gap="sm">
          <ImportPreview preview={preview} headingRef={previewHeading} cohortName={cohortName} onUseWeek={busy ? undefined : switchWeek} />
          <StickyFooter>
            {previewCall.isPending || commitCall.isPending ? <ImportProgress progress={progress} /> : null}
            {failureAlert}
            {confirmingWeek && preview.weekMismatch ? (
              <WeekMismatchConfirm preview={preview} busy={busy} onCommit={commit} onUseWeek={switchWeek} onCancel={() => setConfirmingWeek(false)} />
            ) : (
              <Group justify="flex-end" gap="sm">
                <Button variant="default" onClick={backToForm} disabled={busy}>
                  Back to Edit Form
                </Button>
                <Button onClick={confirm} disabled={busy || preview.unchanged !== null}>
                  {commitCall.isPending ? "Committing..." : "Confirm & Save Data"}
                </Button>
              </Group>
            )}
          </StickyFooter>
        </Stack>
      ) : null}
    </ModalShell>
  );
}
