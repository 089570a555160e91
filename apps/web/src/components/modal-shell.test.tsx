import { Button, Menu } from "@mantine/core";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "../testing/render-app";
import { ModalShell } from "./modal-shell";

/** A button that opens a dialog the way the app's pages do: mounted to open, unmounted to close. */
function OpenedByButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button>Something else</Button>
      <Button onClick={() => setOpen(true)}>Open details</Button>
      {open && (
        <ModalShell title="Details" onClose={() => setOpen(false)}>
          <Button onClick={() => setOpen(false)}>Done</Button>
        </ModalShell>
      )}
    </>
  );
}

function OpenedFromMenu() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Menu>
        <Menu.Target>
          <Button>Export</Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => setOpen(true)}>Email report</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {open && (
        <ModalShell title="Email report" onClose={() => setOpen(false)}>
          <Button onClick={() => setOpen(false)}>Cancel</Button>
        </ModalShell>
      )}
    </>
  );
}

describe("a dialog gives focus back to what opened it", () => {
  it.each([
    ["Escape", () => fireEvent.keyDown(screen.getByRole("dialog"), { key: "Escape" })],
    ["the Close button", () => fireEvent.click(screen.getByRole("button", { name: "Close" }))],
    ["a button of its own", () => fireEvent.click(screen.getByRole("button", { name: "Done" }))],
  ])("closed with %s", async (_how, close) => {
    renderWithProviders(<OpenedByButton />);
    const opener = screen.getByRole("button", { name: "Open details" });
    opener.focus();
    fireEvent.click(opener);
    await screen.findByRole("dialog", { name: "Details" });
    await waitFor(() => expect(document.activeElement).not.toBe(opener));

    close();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it("opened from a menu item, focus goes back to the menu's button (the item is gone with the menu)", async () => {
    renderWithProviders(<OpenedFromMenu />);
    const menuButton = screen.getByRole("button", { name: "Export" });
    fireEvent.click(menuButton);
    const item = await screen.findByRole("menuitem", { name: "Email report" });
    item.focus();
    fireEvent.click(item);
    await screen.findByRole("dialog", { name: "Email report" });

    fireEvent.keyDown(screen.getByRole("dialog"), { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(menuButton));
  });
});
