import { type FeatureSettings, togglesAt } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { parseFeatureSettings } from "./settings.service.js";

const isStudentEditingEnabled = (features: FeatureSettings, schoolId: number | null) =>
  togglesAt(features, schoolId).enableStudentEditing;

describe("feature settings", () => {
  it("default to editing on and read per-school values when not applied to all", () => {
    expect(isStudentEditingEnabled(parseFeatureSettings(undefined), 1)).toBe(true);
    expect(isStudentEditingEnabled(parseFeatureSettings("garbage"), 1)).toBe(true);
    const perSchool = parseFeatureSettings({
      enableStudentEditing: true,
      applyToAllSchools: false,
      schoolSettings: { "2": { enableExport: true, enableStudentEditing: false } },
    });
    expect(isStudentEditingEnabled(perSchool, 2)).toBe(false);
    expect(isStudentEditingEnabled(perSchool, 3)).toBe(true);
    const global = parseFeatureSettings({ enableStudentEditing: false, applyToAllSchools: true, schoolSettings: { "2": { enableStudentEditing: true } } });
    expect(isStudentEditingEnabled(global, 2)).toBe(false);
  });

  it("fill each toggle a school leaves out from the global value, and ignore a malformed school row", () => {
    const features = parseFeatureSettings({
      enableExport: false,
      applyToAllSchools: false,
      schoolSettings: { "4": { enableStudentEditing: false }, "5": "nonsense" },
    });
    expect(togglesAt(features, 4)).toEqual({ enableExport: false, enableStudentEditing: false });
    expect(togglesAt(features, 5)).toEqual({ enableExport: false, enableStudentEditing: true });
    expect(togglesAt(features, null)).toEqual({ enableExport: false, enableStudentEditing: true });
  });
});
