import { Button, PasswordInput, Select, Textarea, TextInput } from "@mantine/core";
import { DatePickerInput } from "@mantine/dates";
import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "../testing/render-app";
import focusRing from "./focus-ring.module.css";

describe("the theme's keyboard affordances", () => {
  it("gives text inputs, selects, comboboxes and password fields the buttons' focus ring", () => {
    renderWithProviders(
      <>
        <TextInput label="Name" />
        <Textarea label="Note" />
        <Select label="School" data={["North", "South"]} />
        <PasswordInput label="Password" />
        <DatePickerInput label="Start date" />
        <Button>Save</Button>
      </>,
    );
    expect(focusRing.input).toBeTruthy();
    const boxes = [
      screen.getByRole("textbox", { name: "Name" }),
      screen.getByRole("textbox", { name: "Note" }),
      screen.getByRole("combobox", { name: "School" }),
      screen.getByRole("button", { name: "Start date" }),
      // The password field's visible box is the wrapper around its input.
      screen.getByLabelText("Password").parentElement!,
    ];
    for (const box of boxes) expect(box.classList, box.outerHTML.slice(0, 80)).toContain(focusRing.input);
    // Buttons keep Mantine's own ring, which the inputs' ring copies.
    expect(screen.getByRole("button", { name: "Save" }).classList).toContain("mantine-focus-auto");
  });

  it("puts the show-password toggle in the tab order, named, and works it from the keyboard", () => {
    renderWithProviders(<PasswordInput label="Password" />);
    const toggle = screen.getByRole("button", { name: "Show or hide characters" });
    expect(toggle.tabIndex).toBe(0);
    expect(toggle.getAttribute("aria-pressed")).toBe("false");
    const input = screen.getByLabelText("Password") as HTMLInputElement;
    expect(input.type).toBe("password");

    toggle.focus();
    expect(document.activeElement).toBe(toggle);
    fireEvent.keyDown(toggle, { key: "Enter" });
    expect(input.type).toBe("text");
    expect(toggle.getAttribute("aria-pressed")).toBe("true");
    fireEvent.keyDown(toggle, { key: " " });
    expect(input.type).toBe("password");
  });
});
