import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "../../../../testing/render-app";
import { buildStudent } from "../../../../testing/weekly-import-data";
import { ImportStudentTable } from "./import-student-table";

// Issue 41.12: a student with several rows in a platform report says which row was used.
describe("the preview's students table", () => {
  it("says which row was used for a student with several rows in a report", () => {
    renderWithProviders(
      <ImportStudentTable
        students={[
          buildStudent(1, {
            rowsUsed: [
              { file: "progress.csv", row: 5, rows: [5, 6] },
              { file: "reflections.csv", row: null, rows: [8, 9] },
            ],
          }),
          buildStudent(2),
        ]}
      />,
    );
    const [twice, once] = screen.getAllByTestId("preview-student");
    const note = within(twice!).getByTestId("report-rows-used");
    expect(within(note).getByText("progress.csv: row 5 used (rows 5, 6)")).toBeTruthy();
    expect(within(note).getByText("reflections.csv: no row used (rows 8, 9 each have an error)")).toBeTruthy();
    expect(within(once!).queryByTestId("report-rows-used")).toBeNull();
  });

  it("shows nothing of it for a preview from a server that does not send the field", () => {
    const { rowsUsed: _none, ...older } = buildStudent(3, { rowsUsed: [] });
    renderWithProviders(<ImportStudentTable students={[older]} />);
    expect(screen.getByText("Student 3")).toBeTruthy();
    expect(screen.queryByTestId("report-rows-used")).toBeNull();
  });
});
