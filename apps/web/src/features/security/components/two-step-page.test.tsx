import { MESSAGES } from "@tally/contract";
import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { jsonResponse, mockFetch } from "../../../testing/mock-fetch";
import { renderApp } from "../../../testing/render-app";
import { buildUser, signIn } from "../../../testing/signed-in-user";

const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i + 2}-efgh${(i % 6) + 2}`);

function serve(state: { totp: boolean; required: boolean }) {
  return mockFetch((url, init) => {
    if (url === "/api/auth/mfa") return jsonResponse(200, { totp: state.totp, passkeys: 0, recoveryCodesLeft: state.totp ? 10 : 0, required: state.required });
    if (url === "/api/auth/mfa/totp/enroll") return jsonResponse(200, { secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", otpauthUrl: "otpauth://totp/x", qrSvg: "<svg/>" });
    if (url === "/api/auth/mfa/totp/confirm") {
      const { code } = JSON.parse(String(init?.body)) as { code: string };
      if (code !== "654321") return jsonResponse(401, { error: MESSAGES.mfaInvalidCode, code: "INVALID_MFA_CODE" });
      state.totp = true;
      return jsonResponse(200, { recoveryCodes: CODES });
    }
    return jsonResponse(200, {});
  });
}

describe("the Two-step sign-in page", () => {
  it("sets up an authenticator: QR code and key, a wrong code refused, then the recovery codes once, then On", async () => {
    signIn(buildUser({ role: "school_user", school_id: 7 }));
    serve({ totp: false, required: false });
    renderApp("/account/two-step");
    fireEvent.click(await screen.findByRole("button", { name: "Set up an authenticator app" }));
    expect(await screen.findByRole("img", { name: "QR code to scan with your authenticator app" })).toBeTruthy();
    expect(screen.getByTestId("totp-secret").textContent).toBe("JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP");

    fireEvent.change(screen.getByLabelText(MESSAGES.mfaEnterCode), { target: { value: "111111" } });
    fireEvent.click(screen.getByRole("button", { name: "Turn on" }));
    expect((await screen.findByRole("alert")).textContent).toBe(MESSAGES.mfaInvalidCode);

    fireEvent.change(screen.getByLabelText(MESSAGES.mfaEnterCode), { target: { value: "654321" } });
    fireEvent.click(screen.getByRole("button", { name: "Turn on" }));
    const list = await screen.findByTestId("recovery-codes");
    expect(within(list).getAllByTestId("recovery-code").map((c) => c.textContent)).toEqual(CODES);
    fireEvent.click(screen.getByRole("button", { name: "I have saved my codes" }));
    expect((await screen.findByTestId("recovery-codes-left")).textContent).toBe("10 unused recovery codes left.");
    expect(screen.getByTestId("two-step-state").textContent).toBe("On");
    expect(screen.queryByTestId("recovery-codes")).toBeNull();
  });

  it("tells an admin who must enrol why, and offers no way to turn it off once on", async () => {
    signIn(buildUser({ role: "admin" }));
    serve({ totp: false, required: true });
    renderApp("/account/two-step");
    expect((await screen.findByTestId("mfa-required-notice")).textContent).toBe(MESSAGES.mfaEnrolmentRequired);
    expect(screen.queryByRole("link", { name: "Back to Tally" })).toBeNull();
  });

  it("asks for the password again before an authenticator app is added, when the server wants a fresh proof", async () => {
    signIn(buildUser({ role: "school_user", school_id: 7 }));
    let proven = false;
    const fetchMock = mockFetch((url, init) => {
      if (url === "/api/auth/mfa") return jsonResponse(200, { totp: false, passkeys: 0, recoveryCodesLeft: 0, required: false });
      if (url === "/api/auth/mfa/reauth") {
        const body = JSON.parse(String(init?.body)) as { password?: string };
        if (body.password !== "the-right-password") return jsonResponse(403, { error: MESSAGES.reauthWrongPassword, code: "REAUTH_FAILED" });
        proven = true;
        return jsonResponse(200, { message: "Confirmed" });
      }
      if (url === "/api/auth/mfa/totp/enroll") {
        return proven
          ? jsonResponse(200, { secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", otpauthUrl: "otpauth://totp/x", qrSvg: "<svg/>" })
          : jsonResponse(403, { error: MESSAGES.reauthRequired, code: "REAUTH_REQUIRED" });
      }
      return jsonResponse(200, {});
    });
    renderApp("/account/two-step");
    fireEvent.click(await screen.findByRole("button", { name: "Set up an authenticator app" }));
    const form = await screen.findByTestId("reauth-form");
    expect(form.textContent).toContain(MESSAGES.reauthRequired);
    expect(screen.queryByRole("img", { name: "QR code to scan with your authenticator app" })).toBeNull();

    fireEvent.change(screen.getByLabelText("Your password"), { target: { value: "a-wrong-password" } });
    fireEvent.click(screen.getByRole("button", { name: "Confirm" }));
    expect((await screen.findByRole("alert")).textContent).toBe(MESSAGES.reauthWrongPassword);
    fireEvent.change(screen.getByLabelText("Your password"), { target: { value: "the-right-password" } });
    fireEvent.click(screen.getByRole("button", { name: "Confirm" }));
    expect(await screen.findByRole("img", { name: "QR code to scan with your authenticator app" })).toBeTruthy();
    const enrolls = fetchMock.mock.calls.filter(([url]) => url === "/api/auth/mfa/totp/enroll");
    expect(enrolls).toHaveLength(2);
  });
});
