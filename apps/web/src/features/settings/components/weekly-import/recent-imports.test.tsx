import { IMPORT_MESSAGES } from "@tally/contract";
import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { jsonResponse, mockFetch } from "../../../../testing/mock-fetch";
import { buildUser, signIn } from "../../../../testing/signed-in-user";
import { buildBatch } from "../../../../testing/weekly-import-data";
import { RecentImports } from "./recent-imports";
import { renderWithProviders } from "../../../../testing/render-app";

const newest = buildBatch({ id: 6, createdCohort: false, summary: { ...buildBatch().summary, newStudentsCreatedCount: 0, attendanceRecordsCreated: 0, weeklyDataCreated: 0 } });
const older = buildBatch({ id: 5, canUndo: false });

function renderList(handler: Parameters<typeof mockFetch>[0]) {
  signIn(buildUser({ role: "admin" }));
  const fetch = mockFetch(handler);
  renderWithProviders(<RecentImports />);
  return fetch;
}

describe("Recent imports", () => {
  it("lists date, who, cohort, week, files and counts, with Undo only on what can be undone", async () => {
    const fetch = renderList(() =>
      jsonResponse(200, { data: [newest, older, buildBatch({ id: 4, kind: "flags", undoneAt: "2026-07-18T10:00:00.000Z", canUndo: false })] }),
    );
    const table = await screen.findByRole("table", { name: "Recent imports" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(3);
    const cells = within(rows[1]!).getAllByRole("cell").map((c) => c.textContent);
    expect(cells.slice(1)).toEqual([
      "admin-user",
      "Weekly data",
      "Summer 2026",
      "3",
      "meeting-attendance.csvprogress.csvreflections.csv",
      "40 students (40 new)Attendance: 80 created, 0 updatedWeekly data: 40 created, 0 updated",
      "Undo the newer import first",
    ]);
    // A flag import's counts are only its flags.
    expect(within(rows[2]!).getAllByRole("cell")[6]?.textContent).toBe("40 studentsFlags: 40 weeks created, 0 updated");
    expect(screen.getByTestId("undo-rule").textContent).toMatch(/^Only the newest import of a cohort can be undone/);
    expect(cells[0]).toMatch(/2026/);
    expect(within(rows[0]!).getByRole("button", { name: "Undo import of Summer 2026 week 3" })).toBeTruthy();
    expect(within(rows[1]!).queryByRole("button")).toBeNull();
    expect(within(rows[2]!).getByText("Undone")).toBeTruthy();
    expect(within(rows[2]!).getByText("Flags")).toBeTruthy();
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/imports?limit=20");
  });

  it("names what an undo removes, including the cohort it created, and says when it is done", async () => {
    let undone = false;
    const fetch = renderList((url, init) => {
      if (init.method === "POST") {
        undone = true;
        return jsonResponse(200, {
          message: "Import undone: 80 attendance records and 40 weekly records removed, 40 students and the cohort removed.",
          data: { batchId: 5, attendanceRecordsRemoved: 80, attendanceRecordsRestored: 0, weeklyDataRemoved: 40, weeklyDataRestored: 0, studentsRemoved: 40, cohortRemoved: true },
        });
      }
      return jsonResponse(200, { data: undone ? [] : [buildBatch()] });
    });
    fireEvent.click(await screen.findByRole("button", { name: "Undo import of Summer 2026 week 3" }));
    const dialog = await screen.findByRole("dialog", { name: "Undo import" });
    expect(dialog.textContent).toContain("Summer 2026, week 3");
    expect(dialog.textContent).toContain("the 80 attendance records and 40 weekly records it created");
    expect(dialog.textContent).not.toContain("previous values");
    expect(dialog.textContent).toContain("the 40 students it created");
    expect(dialog.textContent).toContain("the cohort itself (Summer 2026)");
    fireEvent.click(within(dialog).getByRole("button", { name: "Undo import" }));
    expect((await screen.findByTestId("success-banner")).textContent).toContain("Import undone:");
    expect(fetch.mock.calls.find(([, init]) => init?.method === "POST")?.[0]).toBe("/api/imports/5/undo");
    expect(await screen.findByText("No imports yet.")).toBeTruthy();
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("lists the students edited since the import, and undoes keeping them only when asked", async () => {
    const edited = {
      error: IMPORT_MESSAGES.studentsEditedSince(2),
      code: "STUDENTS_EDITED",
      editedStudentsCount: 2,
      editedStudents: [
        { id: 11, name: "Dimitri Silva", changes: [{ at: "2026-07-20T09:30:00.000Z", by: "ms.jones", fields: ["first_name"] }] },
        {
          id: 12,
          name: "Kwame Patel-Obi",
          changes: [
            { at: "2026-07-21T14:05:00.000Z", by: null, fields: ["last_name", "email"] },
            // A meeting of the import corrected since (PUT /attendance/:id).
            { at: "2026-07-22T08:00:00.000Z", by: "ms.jones", fields: ["attendance"] },
          ],
        },
      ],
    };
    const bodies: unknown[] = [];
    const fetch = renderList((url, init) => {
      if (init.method !== "POST") return jsonResponse(200, { data: [buildBatch()] });
      bodies.push(init.body === undefined ? undefined : JSON.parse(String(init.body)));
      return bodies.length === 1
        ? jsonResponse(409, edited)
        : jsonResponse(200, { message: "Import 5 undone; 2 edited students kept.", data: { batchId: 5, attendanceRecordsRemoved: 80, attendanceRecordsRestored: 0, weeklyDataRemoved: 40, weeklyDataRestored: 0, studentsRemoved: 38, studentsKept: 2, cohortRemoved: false } });
    });
    fireEvent.click(await screen.findByRole("button", { name: "Undo import of Summer 2026 week 3" }));
    const dialog = await screen.findByRole("dialog", { name: "Undo import" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Undo import" }));
    const list = await within(dialog).findByRole("list", { name: "Students edited since the import" });
    const items = within(list).getAllByRole("listitem").map((li) => li.textContent);
    expect(items[0]).toMatch(/^Dimitri Silva: first name, by ms\.jones, .*2026/);
    expect(items[1]).toMatch(/^Kwame Patel-Obi: last name and e-mail, by a deleted account, [^;]*2026[^;]*; attendance, by ms\.jones, .*2026/);
    expect(within(dialog).getByText(/and any meeting corrected since; the rest of the import is undone\./)).toBeTruthy();
    expect(within(dialog).getByRole("alert").textContent).toBe(IMPORT_MESSAGES.studentsEditedSince(2));
    // Nothing is undone until the coordinator chooses to keep them.
    expect(within(dialog).queryByRole("button", { name: "Undo import" })).toBeNull();
    fireEvent.click(within(dialog).getByRole("button", { name: "Undo, keeping these 2 students" }));
    expect((await screen.findByTestId("success-banner")).textContent).toContain("2 edited students kept");
    expect(bodies).toEqual([undefined, { keepEditedStudents: true }]);
    expect(fetch.mock.calls.filter(([, init]) => init?.method === "POST").map(([url]) => url)).toEqual(["/api/imports/5/undo", "/api/imports/5/undo"]);
  });

  it("shows the server's refusal in the dialog and leaves the list as it was", async () => {
    renderList((url, init) =>
      init.method === "POST"
        ? jsonResponse(409, { error: IMPORT_MESSAGES.onlyNewestUndo, code: "NOT_NEWEST_IMPORT" })
        : jsonResponse(200, { data: [buildBatch()] }),
    );
    fireEvent.click(await screen.findByRole("button", { name: "Undo import of Summer 2026 week 3" }));
    const dialog = await screen.findByRole("dialog", { name: "Undo import" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Undo import" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe(IMPORT_MESSAGES.onlyNewestUndo);
    expect(screen.getByRole("table", { name: "Recent imports" })).toBeTruthy();
  });
});
