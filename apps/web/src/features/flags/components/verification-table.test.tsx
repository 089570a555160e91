import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { buildRow } from "../../../testing/flag-upload-data";
import { renderWithProviders } from "../../../testing/render-app";
import { VerificationTable } from "./verification-table";

// Issue 41.12: a student with several rows in a platform report says which row was used.
describe("the verification table", () => {
  it("says which row was used under the name of a student with several rows in a report", () => {
    const rows = [
      buildRow({ rowsUsed: [{ file: "reflections.csv", row: 2, rows: [2, 4] }] }),
      buildRow({ studentId: 2, name: "Kwame Patel", benefit_assignment_id: "BA-100001" }),
    ];
    renderWithProviders(<VerificationTable rows={rows} selected={new Set([0, 1])} onSelect={() => {}} disabled={false} />);
    const table = screen.getByRole("table", { name: "Calculated flags" });
    const [, dmitri, kwame] = within(table).getAllByRole("row");
    expect(within(dmitri!).getByTestId("report-rows-used").textContent).toBe("reflections.csv: row 2 used (rows 2, 4)");
    expect(within(kwame!).queryByTestId("report-rows-used")).toBeNull();
  });
});
