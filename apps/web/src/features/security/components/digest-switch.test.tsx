import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { renderApp } from "../../../testing/render-app";
import { buildUser, signIn } from "../../../testing/signed-in-user";

afterEach(() => vi.unstubAllGlobals());

describe("Weekly digest e-mails on the account page", () => {
  it("turns the digest off with PUT /api/profile/digest and says so", async () => {
    signIn(buildUser({ role: "school_user", school_id: 7 }));
    const bodies: unknown[] = [];
    mockFetch((url, init) => {
      if (url === "/api/auth/mfa") return jsonResponse(200, { totp: false, passkeys: 0, recoveryCodesLeft: 0, required: false });
      if (url === "/api/profile/digest" && init.method === "PUT") {
        bodies.push(JSON.parse(String(init.body)));
        return jsonResponse(200, { enabled: false });
      }
      if (url === "/api/profile/digest") return jsonResponse(200, { enabled: true });
      return jsonResponse(200, {});
    });
    renderApp("/account/two-step");
    const toggle = (await screen.findByRole("switch", { name: /Weekly digest e-mails/ })) as HTMLInputElement;
    await waitFor(() => expect(toggle.disabled).toBe(false));
    expect(toggle.checked).toBe(true);
    fireEvent.click(toggle);
    expect(await screen.findByText("You will not get the weekly digest.")).toBeTruthy();
    expect(bodies).toEqual([{ enabled: false }]);
    await waitFor(() => expect(toggle.checked).toBe(false));
  });

  it("starts from the saved choice: someone who unsubscribed sees it off", async () => {
    signIn(buildUser({ role: "admin" }));
    mockFetch((url) => {
      if (url === "/api/auth/mfa") return jsonResponse(200, { totp: false, passkeys: 0, recoveryCodesLeft: 0, required: false });
      if (url === "/api/profile/digest") return jsonResponse(200, { enabled: false });
      return jsonResponse(200, {});
    });
    renderApp("/account/two-step");
    const toggle = (await screen.findByRole("switch", { name: /Weekly digest e-mails/ })) as HTMLInputElement;
    await waitFor(() => expect(toggle.disabled).toBe(false));
    expect(toggle.checked).toBe(false);
  });
});
