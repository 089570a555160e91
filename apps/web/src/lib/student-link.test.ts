import { describe, expect, it } from "vitest";
import { studentFromLink, studentLink } from "./student-link";

describe("studentLink", () => {
  it("reads back the student it links to", () => {
    expect(studentLink(12)).toBe("/dashboard?student=12");
    expect(studentFromLink(new URL(studentLink(12), "http://x").search)).toBe(12);
  });

  it("ignores anything but a positive whole number", () => {
    for (const search of ["", "?student=", "?student=0", "?student=-3", "?student=1.5", "?student=abc", "?student=12345678901"]) {
      expect(studentFromLink(search), search).toBeNull();
    }
  });
});
