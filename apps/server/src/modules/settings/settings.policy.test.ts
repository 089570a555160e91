import { describe, expect, it } from "vitest";
import { canExport } from "./settings.policy.js";

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
