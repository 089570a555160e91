import { ssoRequiredText } from "@tally/contract";
import { describe, expect, it } from "vitest";
import { buildUser } from "../../../test/factories.js";
import { useTestApp } from "../../../test/test-app.js";

// requireSso: accounts of a domain that must sign in with its provider get no password sign-in.

const t = useTestApp({
  config: {
    oidcProviders: [
      {
        id: "entra",
        name: "Microsoft",
        issuer: "https://login.microsoftonline.com/tenant/v2.0",
        clientId: "c",
        clientSecret: "s",
        domains: ["district.example"],
        requireSso: true,
      },
      { id: "google", name: "Google", issuer: "https://accounts.google.com", clientId: "c", clientSecret: "s", domains: [], requireSso: false },
    ],
  },
});

let ip = 0;
const attempt = (login: string, password: string) =>
  t.app.inject({ method: "POST", url: "/api/auth/login", payload: { login, password }, remoteAddress: `10.9.0.${++ip}` });

const refusal = { error: ssoRequiredText("Microsoft"), code: "SSO_REQUIRED" };

describe("requireSso", () => {
  it("refuses password sign-in for the domain's accounts, naming the provider", async () => {
    const head = await buildUser(t.db, { role: "district_user", email: "Head@District.example" });
    const byEmail = await attempt("head@district.example", head.password);
    expect(byEmail.statusCode).toBe(403);
    expect(byEmail.json()).toEqual(refusal);
    expect(refusal.error).toBe('Your organisation signs in with Microsoft: use "Sign in with Microsoft".');

    const byUsername = await attempt(head.username, head.password);
    expect(byUsername.statusCode).toBe(403);
    expect(byUsername.json()).toEqual(refusal);

    const logs = await t.db.selectFrom("login_logs").where("user_id", "=", head.id).select(["successful", "failure_reason"]).execute();
    expect(logs).toEqual([
      { successful: false, failure_reason: "sso_required" },
      { successful: false, failure_reason: "sso_required" },
    ]);
    expect(await t.db.selectFrom("refresh_tokens").where("user_id", "=", head.id).selectAll().execute()).toEqual([]);
  });

  it("tells a typed address of the domain the same whether an account exists, and a wrong password by username nothing", async () => {
    expect((await attempt("nobody@district.example", "whatever-password")).json()).toEqual(refusal);
    const head = await buildUser(t.db, { role: "district_user", email: "deputy@district.example" });
    const wrong = await attempt(head.username, "not-the-password");
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe("INVALID_CREDENTIALS");
  });

  it("leaves other domains, and providers without requireSso, to the password", async () => {
    const teacher = await buildUser(t.db, { role: "school_user", email: "teacher@school.example" });
    expect((await attempt("teacher@school.example", teacher.password)).statusCode).toBe(200);
    expect((await attempt(teacher.username, teacher.password)).statusCode).toBe(200);
  });
});
