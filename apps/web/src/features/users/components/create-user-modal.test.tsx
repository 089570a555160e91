import { GENERATED_PASSWORD_ALPHABET, MESSAGES } from "@tally/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { jsonResponse } from "../../../testing/mock-fetch";
import { buildUser, signIn } from "../../../testing/signed-in-user";
import { pickComboboxOption } from "../../../testing/combobox";
import { renderApp } from "../../../testing/render-app";
import { buildListUser, buildSchools, mockUsersApi } from "../../../testing/fake-users-api";

const admin = buildUser({ id: 1, role: "admin", username: "admin" });

async function openDialog() {
  fireEvent.click(await screen.findByRole("button", { name: "Add User" }));
  return screen.findByRole("dialog", { name: "Create New User" });
}

function roleOptions(dialog: HTMLElement) {
  return within(dialog)
    .getAllByRole("option")
    .map((o) => o.textContent);
}

function field(dialog: HTMLElement, label: string) {
  return within(dialog).getByLabelText(new RegExp(`^${label}\\s*\\*?$`)) as HTMLInputElement;
}

/** Opens the combobox (once the schools are there) and picks an option. */
async function pickOption(dialog: HTMLElement, label: string, option: string) {
  await pickComboboxOption(field(dialog, label), option);
}

describe("Create New User dialog", () => {
  it("pre-fills a 12-character password in both fields and makes a new one on demand", async () => {
    signIn(admin);
    mockUsersApi({ users: [], schools: buildSchools(3) });
    renderApp("/users");
    const dialog = await openDialog();
    const password = within(dialog).getByLabelText(/^Password/) as HTMLInputElement;
    const confirm = within(dialog).getByLabelText(/^Confirm Password/) as HTMLInputElement;
    expect(password.value).toHaveLength(12);
    expect([...password.value].every((c) => GENERATED_PASSWORD_ALPHABET.includes(c))).toBe(true);
    expect(confirm.value).toBe(password.value);
    const first = password.value;
    fireEvent.click(within(dialog).getByRole("button", { name: /Generate New/ }));
    expect(password.value).toHaveLength(12);
    expect(password.value).not.toBe(first);
    expect(confirm.value).toBe(password.value);
  });

  it("offers Super Admin only to a super admin", async () => {
    signIn(admin);
    mockUsersApi({ users: [] });
    renderApp("/users");
    const dialog = await openDialog();
    const role = within(dialog).getByLabelText(/^Role/) as HTMLSelectElement;
    expect([...role.options].map((o) => o.text)).toEqual(["Select a role", "School User", "District User", "Admin"]);
    expect(roleOptions(dialog)).not.toContain("Super Admin");
  });

  it("shows the validation messages and sends nothing", async () => {
    signIn(admin);
    const fetchMock = mockUsersApi({ users: [], schools: buildSchools(3) });
    renderApp("/users");
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText(/^Username/), { target: { value: "ab" } });
    fireEvent.change(within(dialog).getByLabelText(/^Email/), { target: { value: "not-an-email" } });
    fireEvent.change(within(dialog).getByLabelText(/^Password/), { target: { value: "short" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Create User" }));
    expect(await within(dialog).findByText(MESSAGES.usernameTooShort)).toBeTruthy();
    expect(within(dialog).getByText(MESSAGES.invalidEmail)).toBeTruthy();
    expect(within(dialog).getByText(MESSAGES.selectRole)).toBeTruthy();
    expect(within(dialog).getByText(MESSAGES.passwordTooShort)).toBeTruthy();
    expect(within(dialog).getByText(MESSAGES.passwordsDoNotMatch)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/^Role/), { target: { value: "school_user" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Create User" }));
    expect(await within(dialog).findByText(MESSAGES.selectSchool)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/^Role/), { target: { value: "district_user" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Create User" }));
    expect(await within(dialog).findByText(MESSAGES.selectSchools)).toBeTruthy();
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes("/auth/register"))).toBe(false);
  });

  it("clears the school choice that does not fit a newly chosen role", async () => {
    signIn(admin);
    const fetchMock = mockUsersApi({ users: [], schools: buildSchools(3) });
    renderApp("/users");
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText(/^Username/), { target: { value: "newbie" } });
    fireEvent.change(within(dialog).getByLabelText(/^Email/), { target: { value: "newbie@example.org" } });
    fireEvent.change(within(dialog).getByLabelText(/^Role/), { target: { value: "school_user" } });
    await waitFor(() => expect(field(dialog, "School")).toBeTruthy());
    await pickOption(dialog, "School", "School 02");
    expect(field(dialog, "School").value).toBe("School 02");
    // To district and back: the single school is gone.
    fireEvent.change(within(dialog).getByLabelText(/^Role/), { target: { value: "district_user" } });
    expect(within(dialog).queryByLabelText(/^School\s*\*?$/)).toBeNull();
    await pickOption(dialog, "Schools", "School 01");
    fireEvent.change(within(dialog).getByLabelText(/^Role/), { target: { value: "school_user" } });
    expect(field(dialog, "School").value).toBe("");
    // And the district list is gone too: submitting as a district user asks for schools again.
    fireEvent.change(within(dialog).getByLabelText(/^Role/), { target: { value: "district_user" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Create User" }));
    expect(await within(dialog).findByText(MESSAGES.selectSchools)).toBeTruthy();
    expect(fetchMock.mock.calls.some(([u]) => String(u).endsWith("/auth/register"))).toBe(false);
    // Admin sends neither school field.
    fireEvent.change(within(dialog).getByLabelText(/^Role/), { target: { value: "admin" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Create User" }));
    await screen.findByTestId("created-user");
    const call = fetchMock.mock.calls.find(([u]) => String(u).endsWith("/auth/register"));
    const sent = JSON.parse(String(call![1]!.body)) as Record<string, unknown>;
    expect(sent).toMatchObject({ username: "newbie", email: "newbie@example.org", role: "admin" });
    expect(sent).not.toHaveProperty("school_id");
    expect(sent).not.toHaveProperty("school_ids");
  });

  it("creates a district user, shows the password to save and refreshes the list on Continue", async () => {
    signIn(buildUser({ id: 1, role: "super_admin", username: "root" }));
    const world = { users: [buildListUser({ id: 1, username: "root", role: "super_admin" })], schools: buildSchools(3) };
    const fetchMock = mockUsersApi(world);
    renderApp("/users");
    const dialog = await openDialog();
    const role = within(dialog).getByLabelText(/^Role/) as HTMLSelectElement;
    expect([...role.options].map((o) => o.text)).toContain("Super Admin");
    fireEvent.change(within(dialog).getByLabelText(/^Username/), { target: { value: "dana" } });
    fireEvent.change(within(dialog).getByLabelText(/^Email/), { target: { value: "dana@example.org" } });
    fireEvent.change(role, { target: { value: "district_user" } });
    await pickOption(dialog, "Schools", "School 01");
    await pickOption(dialog, "Schools", "School 03");
    const password = (within(dialog).getByLabelText(/^Password/) as HTMLInputElement).value;
    fireEvent.click(within(dialog).getByRole("button", { name: "Create User" }));
    const panel = await screen.findByTestId("created-user");
    expect(within(panel).getByText("dana")).toBeTruthy();
    expect(within(panel).getByText("dana@example.org")).toBeTruthy();
    expect(screen.getByTestId("created-password").textContent).toBe(password);
    const call = fetchMock.mock.calls.find(([u]) => String(u).endsWith("/auth/register"));
    expect(JSON.parse(String(call![1]!.body))).toEqual({
      username: "dana",
      email: "dana@example.org",
      role: "district_user",
      password,
      school_ids: [1, 3],
    });
    world.users.push(buildListUser({ id: 2, username: "dana", role: "district_user" }));
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    expect((await screen.findByTestId("success-banner")).textContent).toContain("User created successfully");
    expect(await screen.findByTestId("user-row-dana")).toBeTruthy();
  });

  it("shows the server's error, else the fallback", async () => {
    signIn(admin);
    let reply = jsonResponse(409, { error: "Username already exists", code: "CONFLICT" });
    mockUsersApi({ users: [], overrides: { "POST /auth/register": () => reply } });
    renderApp("/users");
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText(/^Username/), { target: { value: "taken" } });
    fireEvent.change(within(dialog).getByLabelText(/^Email/), { target: { value: "taken@example.org" } });
    fireEvent.change(within(dialog).getByLabelText(/^Role/), { target: { value: "admin" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Create User" }));
    expect(await within(dialog).findByText("Username already exists")).toBeTruthy();
    reply = new Response("", { status: 500 });
    fireEvent.click(within(dialog).getByRole("button", { name: "Create User" }));
    expect(await within(dialog).findByText(MESSAGES.createUserFailed)).toBeTruthy();
  });

  it("says so when the schools cannot be fetched", async () => {
    signIn(admin);
    mockUsersApi({ users: [], overrides: { "GET /schools": () => new Response("", { status: 500 }) } });
    renderApp("/users");
    const dialog = await openDialog();
    expect(await within(dialog).findByText("Could not fetch schools. Please try again.")).toBeTruthy();
  });
});
