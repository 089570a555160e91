import {
  type CohortItem,
  FLAG_FILE_FIELDS,
  FLAG_FILE_LABELS,
  FLAG_UPLOAD_MESSAGES,
  type FlagFileField,
  type FlagVerificationRow,
  isCsvFile,
} from "@tally/contract";
import { Alert, Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { FileDropField } from "../../../components/file-drop-field";
import { errorText } from "../../../lib/api-error";
import { useConfirmFlagImport } from "../api/confirm-flag-import";
import { FlagValidationError, processFlags } from "../api/process-flags";
import { IDLE, isBusy, statusText, uploadReducer } from "../lib/upload-state";
import { ImportResult } from "./import-result";
import { VerificationStep } from "./verification-step";

interface Props {
  cohort: CohortItem;
  currentWeek: number;
}

type Files = Partial<Record<FlagFileField, File>>;

const isAbort = (error: unknown) => error instanceof DOMException && error.name === "AbortError";

/** The three reports → process → verify → import, for one cohort and week. */
export function FlagUploadPanel({ cohort, currentWeek }: Props) {
  const [state, dispatch] = useReducer(uploadReducer, IDLE);
  const [files, setFiles] = useState<Files>({});
  const [fileErrors, setFileErrors] = useState<Partial<Record<FlagFileField, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  const focusTarget = useRef<HTMLElement | null>(null);
  const confirm = useConfirmFlagImport();

  const abort = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
  }, []);
  // Another cohort or week: whatever was processed no longer applies (the files stay chosen).
  const runFor = useRef(`${cohort.id}:${currentWeek}`);
  useEffect(() => {
    const key = `${cohort.id}:${currentWeek}`;
    if (runFor.current === key) return;
    runFor.current = key;
    abort();
    dispatch({ type: "reset" });
  }, [abort, cohort.id, currentWeek]);
  // Leaving the page aborts what is in flight.
  useEffect(() => abort, [abort]);
  // After each change of state focus goes to what now matters: Cancel while busy, then the
  // table, the result or the error; Process after Cancel. Never left on a control that vanished.
  const processButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const previous = useRef(state.status);
  useEffect(() => {
    const was = previous.current;
    previous.current = state.status;
    if (was === state.status) return;
    if (isBusy(state.status)) cancelButton.current?.focus();
    else if (state.status === "idle") processButton.current?.focus();
    else focusTarget.current?.focus();
  }, [state.status]);

  const choose = (field: FlagFileField, file: File) => {
    if (!isCsvFile(file.name, file.type)) {
      setFileErrors((e) => ({ ...e, [field]: FLAG_UPLOAD_MESSAGES.invalidFileType }));
      setFiles((f) => ({ ...f, [field]: undefined }));
      return;
    }
    setFileErrors((e) => ({ ...e, [field]: undefined }));
    setFiles((f) => ({ ...f, [field]: file }));
    setFormError(null);
  };

  const process = async () => {
    if (!cohort.id || !currentWeek) return setFormError(FLAG_UPLOAD_MESSAGES.missingWeekOrCohort);
    const chosen = FLAG_FILE_FIELDS.map((field) => files[field]);
    if (chosen.some((file) => !file)) return setFormError(FLAG_UPLOAD_MESSAGES.allFilesRequired);
    setFormError(null);
    abort();
    const own = new AbortController();
    controller.current = own;
    dispatch({ type: "upload" });
    try {
      const result = await processFlags(
        { cohortId: cohort.id, currentWeek, files: files as Record<FlagFileField, File> },
        { signal: own.signal, onStage: (stage) => stage === "processing" && dispatch({ type: "processing" }) },
      );
      if (own.signal.aborted) return;
      if (result.status === "error") {
        dispatch({ type: "fail", message: failureText(result.message, result.validationErrors) });
      } else dispatch({ type: "processed", result });
    } catch (error) {
      if (isAbort(error) || own.signal.aborted) return;
      if (error instanceof FlagValidationError) {
        dispatch({ type: "fail", message: failureText(error.message, error.validationErrors) });
      } else dispatch({ type: "fail", message: errorText(error, FLAG_UPLOAD_MESSAGES.uploadFailed) });
    }
  };

  const runImport = async (rows: FlagVerificationRow[]) => {
    if (state.status !== "verifying" || !state.result.runId) return;
    const own = new AbortController();
    controller.current = own;
    dispatch({ type: "import" });
    try {
      const response = await confirm.mutateAsync({
        body: { runId: state.result.runId, cohortId: cohort.id, currentWeek, verificationData: rows },
        signal: own.signal,
      });
      if (!own.signal.aborted) dispatch({ type: "imported", response });
    } catch (error) {
      if (isAbort(error) || own.signal.aborted) return;
      const server = errorText(error, "");
      dispatch({ type: "fail", message: FLAG_UPLOAD_MESSAGES.importFailed, details: server ? [server] : [] });
    }
  };

  const cancel = () => {
    abort();
    dispatch({ type: "reset" });
  };

  const busy = isBusy(state.status);
  const fieldsLocked = busy || state.status === "verifying";
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="flag-upload-heading">
      <Stack gap="md">
        <Title order={2} size="h3" id="flag-upload-heading">
          Reports for {cohort.name}, Week {currentWeek}
        </Title>
        <Group align="stretch" gap="sm">
          {FLAG_FILE_FIELDS.map((field) => (
            <FileDropField
              key={field}
              label={FLAG_FILE_LABELS[field]}
              hint="Required. Drop a CSV file here or choose one."
              grow
              file={files[field] ?? null}
              error={fileErrors[field]}
              disabled={fieldsLocked}
              onFile={(file) => choose(field, file)}
            />
          ))}
        </Group>
        {formError ? (
          <Text c="red" size="sm" role="alert">
            {formError}
          </Text>
        ) : null}
        <Group gap="sm">
          {state.status === "idle" || state.status === "error" ? (
            <Button ref={processButton} onClick={() => void process()}>
              Process
            </Button>
          ) : null}
          {state.status !== "idle" ? (
            <Button ref={cancelButton} variant="default" onClick={cancel}>
              {state.status === "success" || state.status === "error" ? "Start over" : "Cancel"}
            </Button>
          ) : null}
          <Text size="sm" role="status" aria-live="polite" data-testid="flag-upload-status">
            {statusText(state)}
          </Text>
        </Group>
        {busy ? <Text size="sm" c="dimmed">This can take a minute for a large cohort.</Text> : null}
        {state.status === "error" ? (
          <Alert color="red" role="alert" ref={(el) => void (focusTarget.current = el)} tabIndex={-1} title={state.message}>
            {state.details.map((detail, i) => (
              <Text key={i} size="sm">
                {detail}
              </Text>
            ))}
          </Alert>
        ) : null}
        {state.status === "verifying" || state.status === "importing" ? (
          <VerificationStep
            result={state.result}
            importing={state.status === "importing"}
            onImport={(rows) => void runImport(rows)}
            headingRef={(el) => void (focusTarget.current = el)}
          />
        ) : null}
        {state.status === "success" ? (
          <ImportResult response={state.response} focusRef={(el) => void (focusTarget.current = el)} />
        ) : null}
      </Stack>
    </Paper>
  );
}

/** "File Validation Errors: a; b" when the server named problems, else its message or the spec's fallback. */
function failureText(message: string, validationErrors: string[]): string {
  if (validationErrors.length > 0) return FLAG_UPLOAD_MESSAGES.validationPrefix + validationErrors.join("; ");
  return message || FLAG_UPLOAD_MESSAGES.uploadFailed;
}

