import type { ImportPreview } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import { type UploadOptions, uploadWithProgress } from "../../../lib/upload-with-progress";

export interface ImportUploadVariables extends UploadOptions {
  /** The multipart body: form fields and the three files. */
  form: FormData;
}

/** POST /flag-upload/preview-weekly-data: what a commit of these files would do; writes nothing. */
export function previewWeeklyData({ form, ...options }: ImportUploadVariables): Promise<ImportPreview> {
  return uploadWithProgress<ImportPreview>("/flag-upload/preview-weekly-data", form, options);
}

export function usePreviewWeeklyData() {
  return useMutation({ mutationFn: previewWeeklyData });
}
