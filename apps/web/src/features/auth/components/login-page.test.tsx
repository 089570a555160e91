import { MESSAGES } from "@tally/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { authStore } from "../../../lib/auth-store";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { buildUser } from "../../../testing/signed-in-user";
import { renderApp } from "../../../testing/render-app";

type FetchMock = ReturnType<typeof mockFetch>;
/** The calls to one API path (the page also asks for the sign-in providers when it opens). */
const callsTo = (fetchMock: FetchMock, path: string) => fetchMock.mock.calls.filter(([url]) => String(url).endsWith(path));

async function submitLogin(login: string, password: string) {
  fireEvent.change(await screen.findByLabelText("Username or Email"), { target: { value: login } });
  fireEvent.change(screen.getByLabelText("Password"), { target: { value: password } });
  fireEvent.click(screen.getByRole("button", { name: "Sign In" }));
}

describe("sign-in page", () => {
  it("shows the server's error text", async () => {
    mockFetch(() => jsonResponse(401, { error: "Invalid credentials", code: "INVALID_CREDENTIALS" }));
    renderApp("/login");
    await submitLogin("someone", "wrong");
    expect((await screen.findByTestId("login-error")).textContent).toBe("Invalid credentials");
  });

  it("falls back to 'Login failed' when the server sends no error text", async () => {
    mockFetch(() => new Response("oops", { status: 502 }));
    renderApp("/login");
    await submitLogin("someone", "pw");
    expect((await screen.findByTestId("login-error")).textContent).toBe(MESSAGES.loginFailed);
  });

  it("asks for both fields before calling the server", async () => {
    const fetchMock = mockFetch(() => jsonResponse(500, {}));
    renderApp("/login");
    fireEvent.click(await screen.findByRole("button", { name: "Sign In" }));
    expect(await screen.findByText("Please enter your username or email")).toBeTruthy();
    expect(screen.getByText("Please enter your password")).toBeTruthy();
    expect(callsTo(fetchMock, "/api/auth/login")).toEqual([]);
  });

  it("stores the session and sends a school_user to their school dashboard", async () => {
    const user = buildUser({ role: "school_user", school_id: 7, school_name: "Oak School" });
    const fetchMock = mockFetch((url) =>
      // The school dashboard looks its school's name up.
      url === "/api/schools"
        ? jsonResponse(200, { data: [{ id: 7, name: "Oak School", district: "D" }] })
        : jsonResponse(200, { token: "t1", refreshToken: "r1", user }),
    );
    const { router } = renderApp("/login");
    await submitLogin("  oak@example.org ", "pw");
    expect(await screen.findByRole("heading", { name: "Oak School Dashboard" })).toBeTruthy();
    expect(router.state.location.pathname).toBe("/school/7/dashboard");
    expect(authStore.get()).toMatchObject({ token: "t1", refreshToken: "r1" });
    expect(JSON.parse(String(callsTo(fetchMock, "/api/auth/login")[0]![1]?.body))).toEqual({
      login: "oak@example.org",
      password: "pw",
    });
  });

  it("returns to the guarded page the user came from when allowed", async () => {
    const user = buildUser({ role: "admin" });
    mockFetch(() => jsonResponse(200, { token: "t1", refreshToken: "r1", user }));
    const { router } = renderApp("/admin/settings");
    await submitLogin("admin", "pw");
    expect(await screen.findByRole("heading", { name: "Admin Settings" })).toBeTruthy();
    expect(router.state.location.pathname).toBe("/admin/settings");
  });

  it("goes home instead of to a page the role may not see", async () => {
    const user = buildUser({ role: "admin" });
    mockFetch(() => jsonResponse(200, { token: "t1", refreshToken: "r1", user }));
    const { router } = renderApp("/admin/flag-uploader");
    await submitLogin("admin", "pw");
    await screen.findByRole("heading", { name: "Admin Dashboard" });
    expect(router.state.location.pathname).toBe("/dashboard");
  });

  it("shows the stored session message when ?session=expired", async () => {
    mockFetch(() => jsonResponse(200, []));
    sessionStorage.setItem("tally.sessionMessage", MESSAGES.sessionVersionMismatch);
    renderApp("/login?session=expired");
    expect((await screen.findByTestId("session-expired-notice")).textContent).toBe(
      MESSAGES.sessionVersionMismatch,
    );
  });

  it("shows the default expiry text when no message is stored", async () => {
    mockFetch(() => jsonResponse(200, []));
    renderApp("/login?session=expired");
    expect((await screen.findByTestId("session-expired-notice")).textContent).toBe(
      "Your session has expired. Please log in again.",
    );
  });

  it("shows no session notice without the query value", async () => {
    mockFetch(() => jsonResponse(200, []));
    sessionStorage.setItem("tally.sessionMessage", MESSAGES.sessionVersionMismatch);
    renderApp("/login");
    await screen.findByLabelText("Username or Email");
    expect(screen.queryByTestId("session-expired-notice")).toBeNull();
  });
});

async function openDialog() {
  fireEvent.click(await screen.findByRole("button", { name: "Forgot your password?" }));
  return screen.findByRole("dialog");
}

describe("single sign-on buttons", () => {
  it('shows "Sign in with {name}" for each provider, linking to its start', async () => {
    mockFetch((url) =>
      url === "/api/auth/providers"
        ? jsonResponse(200, [
            { id: "google", name: "Google" },
            { id: "entra", name: "Microsoft" },
          ])
        : jsonResponse(500, {}),
    );
    renderApp("/login");
    const google = await screen.findByRole("link", { name: "Sign in with Google" });
    expect(google.getAttribute("href")).toBe("/api/auth/oidc/google/start");
    expect(screen.getByRole("link", { name: "Sign in with Microsoft" }).getAttribute("href")).toBe("/api/auth/oidc/entra/start");
  });

  it("shows none when no provider is configured", async () => {
    mockFetch((url) => (url === "/api/auth/providers" ? jsonResponse(200, []) : jsonResponse(500, {})));
    renderApp("/login");
    expect(await screen.findByRole("button", { name: "Sign In" })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("link", { name: /Sign in with/ })).toBeNull());
  });
});

describe("forgot-password dialog", () => {
  it("requires an e-mail, then posts it and shows the success text", async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, { message: "ok" }));
    renderApp("/login");
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole("button", { name: "Send Reset Link" }));
    expect(await within(dialog).findByText("Email is required")).toBeTruthy();
    expect(callsTo(fetchMock, "/api/auth/forgot-password")).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText("Email"), { target: { value: "a@example.org" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Send Reset Link" }));
    expect(
      await within(dialog).findByText(
        "If an account exists with this email, you will receive password reset instructions shortly.",
      ),
    ).toBeTruthy();
    const [url, init] = callsTo(fetchMock, "/api/auth/forgot-password")[0]!;
    expect(url).toBe("/api/auth/forgot-password");
    expect(init?.method).toBe("POST");
    expect(JSON.parse(String(init?.body))).toEqual({ email: "a@example.org" });
  });

  it("shows the fallback error text when the request fails without a server message", async () => {
    mockFetch(() => new Response("", { status: 500 }));
    renderApp("/login");
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText("Email"), { target: { value: "a@example.org" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Send Reset Link" }));
    expect(await within(dialog).findByText("Failed to process request. Please try again.")).toBeTruthy();
  });

  it("closes with Cancel", async () => {
    mockFetch(() => jsonResponse(200, []));
    renderApp("/login");
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });
});
