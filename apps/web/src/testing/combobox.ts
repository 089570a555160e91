import { fireEvent, waitFor, within } from "@testing-library/react";

/**
 * Opens a Mantine combobox and picks an option. Mantine keeps the dropdown display:none in
 * happy-dom (no layout to position it), hence `hidden: true`.
 */
export async function pickComboboxOption(input: HTMLInputElement, option: string): Promise<void> {
  if (input.getAttribute("aria-expanded") !== "true") fireEvent.click(input);
  const listbox = await waitFor(() => {
    const id = input.getAttribute("aria-controls");
    const element = id ? document.getElementById(id) : null;
    if (!element) throw new Error("no listbox");
    return element;
  });
  fireEvent.click(await within(listbox).findByRole("option", { name: option, hidden: true }));
}
