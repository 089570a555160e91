import { describe, expect, it } from "vitest";
import { canExport, FEATURE_DEFAULTS, type FeatureSettings, schoolToggles, togglesAt } from "./settings.js";

describe("canExport", () => {
  const on = { enableExport: true, enableStudentEditing: true };
  const off = { enableExport: false, enableStudentEditing: true };

  it("always lets admins and super admins export", () => {
    expect(canExport({ role: "admin" }, off)).toBe(true);
    expect(canExport({ role: "super_admin" }, off)).toBe(true);
  });

  it("lets school and district users export per their school's toggle", () => {
    expect(canExport({ role: "school_user" }, on)).toBe(true);
    expect(canExport({ role: "school_user" }, off)).toBe(false);
    expect(canExport({ role: "district_user" }, on)).toBe(true);
    expect(canExport({ role: "district_user" }, off)).toBe(false);
  });
});

describe("the toggles at a school", () => {
  const features: FeatureSettings = {
    enableExport: false,
    enableStudentEditing: true,
    applyToAllSchools: false,
    schoolSettings: { "4": { enableStudentEditing: false }, "6": { enableExport: true, enableStudentEditing: false } },
  };

  it("are the school's own row, each toggle it leaves out taken from the global values", () => {
    expect(schoolToggles(features, 4)).toEqual({ enableExport: false, enableStudentEditing: false });
    expect(schoolToggles(features, 6)).toEqual({ enableExport: true, enableStudentEditing: false });
    expect(schoolToggles(features, 5)).toEqual({ enableExport: false, enableStudentEditing: true });
    expect(togglesAt(features, 6)).toEqual({ enableExport: true, enableStudentEditing: false });
  });

  it("are the global values when they apply to all schools, or no school is named", () => {
    expect(togglesAt(features, null)).toEqual({ enableExport: false, enableStudentEditing: true });
    expect(togglesAt({ ...features, applyToAllSchools: true }, 6)).toEqual({ enableExport: false, enableStudentEditing: true });
    // A school's own row is still its own while the global values apply (the screen keeps it).
    expect(schoolToggles({ ...features, applyToAllSchools: true }, 6)).toEqual({ enableExport: true, enableStudentEditing: false });
    expect(togglesAt(FEATURE_DEFAULTS, 1)).toEqual({ enableExport: true, enableStudentEditing: true });
  });
});
