import type { ConfirmFlagImportResponse, ProcessFlagsResponse } from "@tally/contract";

/** Spec §4: idle, uploading, processing, verifying, importing, success; any error goes to error. */
export type UploadState =
  | { status: "idle" }
  | { status: "uploading" }
  | { status: "processing" }
  | { status: "verifying"; result: ProcessFlagsResponse }
  | { status: "importing"; result: ProcessFlagsResponse }
  | { status: "success"; result: ProcessFlagsResponse; response: ConfirmFlagImportResponse }
  | { status: "error"; message: string; details: string[] };

export type UploadStatus = UploadState["status"];

export type UploadAction =
  | { type: "upload" }
  | { type: "processing" }
  | { type: "processed"; result: ProcessFlagsResponse }
  | { type: "import" }
  | { type: "imported"; response: ConfirmFlagImportResponse }
  | { type: "fail"; message: string; details?: string[] }
  | { type: "reset" };

export const IDLE: UploadState = { status: "idle" };

/** The transitions; an action that does not fit the current state leaves it as it is (a late reply after Cancel). */
export function uploadReducer(state: UploadState, action: UploadAction): UploadState {
  switch (action.type) {
    case "upload":
      return state.status === "idle" || state.status === "error" ? { status: "uploading" } : state;
    case "processing":
      return state.status === "uploading" ? { status: "processing" } : state;
    case "processed":
      return state.status === "uploading" || state.status === "processing"
        ? { status: "verifying", result: action.result }
        : state;
    case "import":
      return state.status === "verifying" ? { status: "importing", result: state.result } : state;
    case "imported":
      return state.status === "importing" ? { status: "success", result: state.result, response: action.response } : state;
    case "fail":
      return state.status === "idle" ? state : { status: "error", message: action.message, details: action.details ?? [] };
    case "reset":
      return IDLE;
  }
}

/** True while a request is in flight (Cancel aborts it). */
export const isBusy = (status: UploadStatus) => status === "uploading" || status === "processing" || status === "importing";

/** The one-line state read out by screen readers. */
export function statusText(state: UploadState): string {
  switch (state.status) {
    case "idle":
      return "Choose the three reports, then process them.";
    case "uploading":
      return "Uploading reports...";
    case "processing":
      return "Processing reports...";
    case "verifying":
      return `Verify the calculated flags: ${state.result.data.length} students matched.`;
    case "importing":
      return "Importing flags...";
    case "success":
      return "Flags imported.";
    case "error":
      return "Something went wrong.";
  }
}
