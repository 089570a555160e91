import { describe, expect, it } from "vitest";
import { auditChanges, fieldLabel, valueText, whatText } from "./audit-changes";

const names = { schools: { "5": "Oak School", "6": "Pine School" }, cohorts: { "9": "Autumn 2026 Internship" } };

describe("audit changes in words", () => {
  it("lists only the fields that changed, before → after, with schools and roles by name", () => {
    expect(
      auditChanges(
        { username: "oak", role: "school_user", school_id: 5, is_active: true },
        { username: "oak", role: "admin", school_id: null, is_active: true },
        names,
      ),
    ).toEqual([
      { field: "Role", before: "School User", after: "Admin" },
      { field: "School", before: "Oak School", after: "none" },
    ]);
  });

  it("lists what a creation set, and names a district user's schools", () => {
    expect(auditChanges(null, { email: "a@b.org", school_ids: [5, 6], is_active: true }, names)).toEqual([
      { field: "E-mail", after: "a@b.org" },
      { field: "Schools", after: "Oak School, Pine School" },
      { field: "Active", after: "Yes" },
    ]);
  });

  it("says an id it has no name for as what it is, and a list of rows one row after another", () => {
    expect(valueText(77, names, "cohortId")).toBe("cohort 77");
    expect(valueText(9, names, "cohortId")).toBe("Autumn 2026 Internship");
    expect(auditChanges([{ cohort_id: 9, school_id: 5, is_visible: true }], [{ cohort_id: 9, school_id: 5, is_visible: false }], names)).toEqual([
      {
        field: "Value",
        before: "Cohort: Autumn 2026 Internship; School: Oak School; Visible: Yes",
        after: "Cohort: Autumn 2026 Internship; School: Oak School; Visible: No",
      },
    ]);
    expect(auditChanges(null, null, names)).toEqual([]);
    expect(valueText([{ label: "School", value: "All schools" }, { label: "Cohort", value: "Autumn" }], names)).toBe("School: All schools, Cohort: Autumn");
  });

  it("turns code-like field names into words", () => {
    expect(fieldLabel("first_name")).toBe("First name");
    expect(fieldLabel("attendanceRecordsRemoved")).toBe("Attendance records removed");
    expect(fieldLabel("enableExport")).toBe("Export enabled");
  });
});

describe("what an audit entry changed", () => {
  it("names it, says when it is gone, and never shows a sender's id or a settings key as an id", () => {
    expect(whatText({ entity: "user", entityId: "9", entityName: "oak" })).toBe("User oak");
    expect(whatText({ entity: "user", entityId: "9", entityName: null })).toBe("User 9 (no longer there)");
    expect(whatText({ entity: "settings", entityId: "features", entityName: null })).toBe("Feature settings");
    expect(whatText({ entity: "report_email", entityId: "3", entityName: null })).toBe("Report e-mail");
    expect(whatText({ entity: "cohort_visibility", entityId: null, entityName: null })).toBe("Cohort visibility");
  });
});
