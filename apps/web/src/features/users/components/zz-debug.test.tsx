import { fireEvent, screen, within } from "@testing-library/react";
import { it } from "vitest";
import { buildUser, signIn } from "../../../test/fixtures";
import { renderApp } from "../../../test/render-app";
import { buildSchools, mockUsersApi } from "./users.test-helpers";

it("debug", async () => {
  signIn(buildUser({ id: 1, role: "admin" }));
  mockUsersApi({ users: [], schools: buildSchools(3) });
  renderApp("/users");
  fireEvent.click(await screen.findByRole("button", { name: "Add User" }));
  const dialog = await screen.findByRole("dialog", { name: "Create New User" });
  fireEvent.change(within(dialog).getByLabelText(/^Role/), { target: { value: "school_user" } });
  await new Promise((r) => setTimeout(r, 300));
  const input = within(dialog).getByLabelText(/^School\s*\*?$/);
  console.log("INPUT", input.outerHTML);
  fireEvent.click(input);
  await new Promise((r) => setTimeout(r, 300));
  console.log("OPTIONS", screen.queryAllByRole("option").map((o) => o.outerHTML).join("\n"));
  console.log("HIDDENOPTS", screen.queryAllByRole("option", { hidden: true }).map((o) => o.outerHTML).join("\n"));
  let el: HTMLElement | null = document.querySelector("[role=listbox]"); while (el) { console.log("ANC", el.tagName, el.getAttribute("style"), el.hidden); el = el.parentElement; }
  console.log("LISTBOX", document.querySelectorAll("[role=listbox]").length, document.querySelector("[role=listbox]")?.outerHTML.slice(0, 800));
});
