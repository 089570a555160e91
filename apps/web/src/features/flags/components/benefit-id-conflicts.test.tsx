import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderApp } from "../../../testing/render-app";
import { BenefitIdConflicts } from "./benefit-id-conflicts";

const conflicts = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ benefitAssignmentId: `BA-${i}`, student: { id: i + 1, name: `Student ${i}` }, heldBy: { id: 100 + i, name: `Holder ${i}` } }));

function show(n: number, when: "before" | "after" = "before") {
  renderApp("/x", [{ path: "/x", element: <BenefitIdConflicts conflicts={conflicts(n)} when={when} /> }]);
}

describe("the Benefit Assignment ID conflicts warning", () => {
  it("names the ID and both students, each a link to the student", () => {
    show(1);
    const warning = screen.getByTestId("benefit-id-conflicts");
    expect(within(warning).getByText("1 Benefit Assignment ID already held by another student")).toBeTruthy();
    expect(within(warning).getByRole("listitem").textContent).toBe("BA-0 is held by Holder 0; the CRM report gives it to Student 0.");
    expect(within(warning).getByRole("link", { name: "Holder 0" }).getAttribute("href")).toBe("/dashboard?student=100");
    expect(within(warning).getByRole("link", { name: "Student 0" }).getAttribute("href")).toBe("/dashboard?student=1");
    expect(warning.textContent).toContain("will be imported without one");
  });

  it("lists the first five of many, the rest one click away", () => {
    show(12, "after");
    const warning = screen.getByTestId("benefit-id-conflicts");
    expect(within(warning).getByText("12 Benefit Assignment IDs already held by another student")).toBeTruthy();
    expect(warning.textContent).toContain("was imported without one");
    expect(within(warning).getAllByRole("listitem")).toHaveLength(5);
    fireEvent.click(within(warning).getByRole("button", { name: "Show all 12" }));
    expect(within(warning).getAllByRole("listitem")).toHaveLength(12);
    fireEvent.click(within(warning).getByRole("button", { name: "Show the first 5" }));
    expect(within(warning).getAllByRole("listitem")).toHaveLength(5);
  });

  it("shows nothing without a conflict", () => {
    show(0);
    expect(screen.queryByTestId("benefit-id-conflicts")).toBeNull();
  });
});
