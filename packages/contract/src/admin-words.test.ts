import { describe, expect, it } from "vitest";
import {
  AUDIT_ACTIONS,
  AUDIT_ACTION_WORDS,
  AUDIT_ENTITIES,
  AUDIT_ENTITY_WORDS,
  auditActionText,
  auditEntityText,
  LOGIN_FAILURE_REASONS,
  LOGIN_FAILURE_WORDS,
  loginFailureText,
} from "./admin-words.js";

const looksLikeACode = /[._]|^[a-z]/;

describe("words for the codes of the login history and the audit log", () => {
  it.each([
    ["login failure reasons", LOGIN_FAILURE_REASONS, LOGIN_FAILURE_WORDS],
    ["audit actions", AUDIT_ACTIONS, AUDIT_ACTION_WORDS],
    ["audit entities", AUDIT_ENTITIES, AUDIT_ENTITY_WORDS],
  ] as const)("every one of the %s has words, and no words are left over", (_, codes, words) => {
    expect(new Set(codes).size).toBe(codes.length);
    expect(Object.keys(words).toSorted()).toEqual([...codes].toSorted());
    for (const code of codes) {
      const text = (words as Record<string, string>)[code];
      expect(text, code).toBeTruthy();
      expect(text, code).not.toMatch(looksLikeACode);
    }
  });

  it("says a failed sign-in in words, and keeps an older free-text reason as it was", () => {
    expect(loginFailureText("wrong_password")).toBe("Wrong password");
    expect(loginFailureText("rate_limited")).toBe("Too many attempts, locked for a while");
    expect(loginFailureText("Invalid credentials")).toBe("Invalid credentials");
    expect(loginFailureText(null)).toBe("-");
  });

  it("says an audited action in words, naming what the two generic actions changed or sent", () => {
    expect(auditActionText("user.deactivated", "user")).toBe("Deactivated user");
    expect(auditActionText("update", "cohort_visibility")).toBe("Changed cohort visibility");
    expect(auditActionText("update", "settings")).toBe("Changed settings");
    expect(auditActionText("send", "report_email")).toBe("Sent report e-mail");
    expect(auditEntityText("import_batch")).toBe("Import");
    // An unknown code (an old log) is shown as stored rather than hidden.
    expect(auditActionText("school.renamed", "school")).toBe("school.renamed");
  });
});
