import { describe, expect, it } from "vitest";
import { demoOpenTo } from "./demo-settings.js";

describe("demoOpenTo", () => {
  const demo = { isDemoVisible: true, adminAccess: true, schoolAccess: false };

  it("opens the demo school to admins with adminAccess and to everyone else with schoolAccess", () => {
    expect(demoOpenTo("admin", demo)).toBe(true);
    expect(demoOpenTo("super_admin", demo)).toBe(true);
    expect(demoOpenTo("school_user", demo)).toBe(false);
    expect(demoOpenTo("district_user", demo)).toBe(false);
    const schoolsOnly = { ...demo, adminAccess: false, schoolAccess: true };
    expect(demoOpenTo("admin", schoolsOnly)).toBe(false);
    expect(demoOpenTo("school_user", schoolsOnly)).toBe(true);
    expect(demoOpenTo("district_user", schoolsOnly)).toBe(true);
  });

  it("opens it to no one while the demo is off", () => {
    const off = { isDemoVisible: false, adminAccess: true, schoolAccess: true };
    for (const role of ["super_admin", "admin", "district_user", "school_user"] as const) expect(demoOpenTo(role, off)).toBe(false);
  });
});
