import { describe, expect, it } from "vitest";
import { parseDemoSettings } from "./scope-settings.service.js";

describe("demo ids", () => {
  it("come from the demo setting, else the spec's 123 and 6", () => {
    const toggles = { isDemoVisible: true, adminAccess: true, schoolAccess: false };
    expect(parseDemoSettings(undefined)).toEqual({ schoolId: 123, cohortId: 6, ...toggles });
    expect(parseDemoSettings({ isDemoVisible: true })).toEqual({ schoolId: 123, cohortId: 6, ...toggles });
    expect(parseDemoSettings({ schoolId: 7, cohortId: "x" })).toEqual({ schoolId: 7, cohortId: 6, ...toggles });
    expect(parseDemoSettings([1, 2])).toEqual({ schoolId: 123, cohortId: 6, ...toggles });
  });
});
