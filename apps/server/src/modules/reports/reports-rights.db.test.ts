import { FEATURE_DEFAULTS, REPORT_MESSAGES } from "@tally/contract";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorldUserKey } from "../../../test/dashboard-world.js";
import { setSetting } from "../../../test/factories.js";
import { useReportWorld } from "../../../test/report-world.js";
import { exportRefusal } from "../exports/exports.policy.js";

const { t, w, as } = useReportWorld();

type Export = "pdf" | "csv" | "email";
const EXPORTS: Export[] = ["pdf", "csv", "email"];

function exportAs(user: WorldUserKey, kind: Export, query: { schoolId?: number } = {}): Promise<LightMyRequestResponse> {
  const q = query.schoolId === undefined ? "" : `?schoolId=${query.schoolId}`;
  if (kind === "pdf") return t.app.inject({ method: "GET", url: `/api/pdf-reports/generate${q}`, headers: as[user] });
  if (kind === "csv") return t.app.inject({ method: "GET", url: `/api/reports/students.csv${q}`, headers: as[user] });
  return t.app.inject({ method: "POST", url: "/api/email/send-report", headers: as[user], payload: { recipient: "funder@example.test", ...query } });
}

/** The feature settings for the tests of the enclosing describe, back to the defaults after. */
function useFeatures(value: () => object) {
  beforeAll(() => setSetting(t.db, "features", value()));
  afterAll(() => t.db.deleteFrom("settings").where("key", "=", "features").execute());
}

type Row = [WorldUserKey, { schoolId?: () => number }, 200 | 403, string?];

function expectMatrix(rows: Row[]) {
  for (const kind of EXPORTS) {
    it.each(rows)(`${kind}: %s %o → %s`, async (user, query, status, text) => {
      const res = await exportAs(user, kind, { schoolId: query.schoolId?.() });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(status);
      if (status === 403) expect(res.json()).toEqual({ error: text, code: "FORBIDDEN" });
    });
  }
}

describe("export on everywhere (the default)", () => {
  expectMatrix([
    ["superAdmin", {}, 200],
    ["admin", {}, 200],
    ["districtAB", {}, 200],
    ["schoolA", {}, 200],
  ]);
});

describe("export off for all schools", () => {
  useFeatures(() => ({ ...FEATURE_DEFAULTS, enableExport: false, applyToAllSchools: true }));
  expectMatrix([
    ["superAdmin", {}, 200],
    ["admin", {}, 200],
    ["districtAB", {}, 403, REPORT_MESSAGES.exportOffDistrict],
    ["districtAB", { schoolId: () => w.schools.b.id }, 403, REPORT_MESSAGES.exportOffDistrict],
    ["schoolA", {}, 403, REPORT_MESSAGES.exportOffSchool],
    ["schoolB", {}, 403, REPORT_MESSAGES.exportOffSchool],
  ]);

  // Issue 41: every student of the filters with e-mail addresses is a bulk read, so an export.
  it("refuses the report data too, with the same reason", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/reports/data", headers: as.schoolA });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: REPORT_MESSAGES.exportOffSchool, code: "FORBIDDEN" });
  });
});

describe("export off at Alder High only", () => {
  useFeatures(() => ({
    ...FEATURE_DEFAULTS,
    enableExport: true,
    applyToAllSchools: false,
    schoolSettings: { [String(w.schools.a.id)]: { enableExport: false, enableStudentEditing: true } },
  }));
  expectMatrix([
    ["admin", { schoolId: () => w.schools.a.id }, 200],
    ["schoolA", {}, 403, REPORT_MESSAGES.exportOffSchool],
    ["schoolB", {}, 200],
    // Every school of the report must allow it: A and B together do not.
    ["districtAB", {}, 403, REPORT_MESSAGES.exportOffDistrict],
    ["districtAB", { schoolId: () => w.schools.a.id }, 403, REPORT_MESSAGES.exportOffDistrict],
    ["districtAB", { schoolId: () => w.schools.b.id }, 200],
  ]);
});

describe("exportRefusal", () => {
  const off = { ...FEATURE_DEFAULTS, enableExport: false };
  it("allows export when the feature settings could not be read (spec: feature check failure)", () => {
    expect(exportRefusal({ role: "school_user", schoolId: 1 }, undefined, [1])).toBeUndefined();
    expect(exportRefusal({ role: "district_user", schoolId: null }, undefined, [1, 2])).toBeUndefined();
  });
  it("always allows admins and super admins", () => {
    expect(exportRefusal({ role: "admin", schoolId: null }, off, [1])).toBeUndefined();
    expect(exportRefusal({ role: "super_admin", schoolId: null }, off, [])).toBeUndefined();
  });
  it("refuses school and district users when export is off, with their own texts", () => {
    expect(exportRefusal({ role: "school_user", schoolId: 1 }, off, [1])).toBe(REPORT_MESSAGES.exportOffSchool);
    expect(exportRefusal({ role: "district_user", schoolId: null }, off, [1])).toBe(REPORT_MESSAGES.exportOffDistrict);
  });
});
