import type { LoginLogRow } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { loginHistoryCsv, loginHistoryFileName } from "./login-history-csv";

const row = (overrides: Partial<LoginLogRow>): LoginLogRow => ({
  id: 7,
  created_at: "2025-03-04T05:06:07.000Z",
  login_method: "username",
  provider: null,
  ip_address: "10.0.0.1",
  user_agent: null,
  successful: true,
  failure_reason: null,
  ...overrides,
});

describe("login history CSV", () => {
  it("writes a header and one line per attempt, hostile text neutralised", () => {
    const csv = loginHistoryCsv([
      row({ id: 7 }),
      row({ id: 8, successful: false, user_agent: "=cmd|' /C calc'!A0", failure_reason: "Invalid, \"bad\" password" }),
    ]);
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("ID,Date/Time (UTC),Method,IP Address,Browser,User Agent,Status,Failure Reason");
    expect(lines[1]).toBe("7,2025-03-04T05:06:07.000Z,username,10.0.0.1,Unknown,,Success,");
    expect(lines[2]).toBe("8,2025-03-04T05:06:07.000Z,username,10.0.0.1,Other,'=cmd|' /C calc'!A0,Failed,\"Invalid, \"\"bad\"\" password\"");
    expect(lines[3]).toBe("");
  });

  it("writes the failure reason in words", () => {
    const csv = loginHistoryCsv([row({ id: 9, successful: false, failure_reason: "wrong_password" })]);
    expect(csv.split("\r\n")[1]).toBe("9,2025-03-04T05:06:07.000Z,username,10.0.0.1,Unknown,,Failed,Wrong password");
  });

  it("quotes a user agent holding `;` and defuses a formula after it, for Excel in a `;` locale", () => {
    const csv = loginHistoryCsv([row({ id: 9, user_agent: "Mozilla/5.0 (X11;=cmd|' /C calc'!A0)" })]);
    expect(csv.split("\r\n")[1]).toBe("9,2025-03-04T05:06:07.000Z,username,10.0.0.1,Other,\"Mozilla/5.0 (X11;'=cmd|' /C calc'!A0)\",Success,");
  });

  it("names the provider of a single sign-on in the Method column", () => {
    const csv = loginHistoryCsv([row({ id: 10, login_method: "oidc", provider: "google" })]);
    expect(csv.split("\r\n")[1]).toBe("10,2025-03-04T05:06:07.000Z,oidc (google),10.0.0.1,Unknown,,Success,");
  });

  it("names the file login_history_{username}_{YYYY-MM-DD}.csv", () => {
    expect(loginHistoryFileName("alice", new Date(2025, 2, 9, 12))).toBe("login_history_alice_2025-03-09.csv");
    expect(loginHistoryFileName("a/b c", new Date(2025, 10, 20))).toBe("login_history_a_b_c_2025-11-20.csv");
  });
});
