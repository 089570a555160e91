import { describe, expect, it } from "vitest";
import type { ProcessFlagsResponse } from "@tally/contract";
import { IDLE, type UploadAction, type UploadState, uploadReducer } from "./upload-state";

const result: ProcessFlagsResponse = { status: "success", message: "", validationErrors: [], rowErrors: [], rowErrorCount: 0, runId: "r", data: [], unmatched: [], benefitIdConflicts: [] };
const run = (actions: UploadAction[], from: UploadState = IDLE) => actions.reduce(uploadReducer, from).status;

describe("flag upload states", () => {
  it("runs idle → uploading → processing → verifying → importing → success", () => {
    const steps: UploadAction[] = [
      { type: "upload" },
      { type: "processing" },
      { type: "processed", result },
      { type: "import" },
      { type: "imported", response: { status: "success", message: "", batchId: 1, summary: { studentsImported: 0, weeklyDataCreated: 0, weeklyDataUpdated: 0, unchanged: 0, benefitAssignmentIdsStored: 0, benefitAssignmentIdsHeldElsewhere: 0 }, benefitIdConflicts: [] } },
    ];
    const seen = steps.map((_, i) => run(steps.slice(0, i + 1)));
    expect(seen).toEqual(["uploading", "processing", "verifying", "importing", "success"]);
  });

  it("any failure goes to error; reset goes back to idle", () => {
    expect(run([{ type: "upload" }, { type: "fail", message: "x" }])).toBe("error");
    expect(run([{ type: "upload" }, { type: "processed", result }, { type: "import" }, { type: "fail", message: "x" }])).toBe("error");
    expect(run([{ type: "upload" }, { type: "reset" }])).toBe("idle");
  });

  it("a reply arriving after Cancel changes nothing", () => {
    expect(run([{ type: "upload" }, { type: "reset" }, { type: "processed", result }])).toBe("idle");
    expect(run([{ type: "upload" }, { type: "reset" }, { type: "fail", message: "aborted" }])).toBe("idle");
  });

  it("cannot import before verifying", () => {
    expect(run([{ type: "import" }])).toBe("idle");
    expect(run([{ type: "upload" }, { type: "import" }])).toBe("uploading");
  });
});
