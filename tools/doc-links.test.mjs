import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { checkDocLinks, docFiles, githubSlug, headingAnchors, markdownLinks } from "./doc-links.mjs";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");

let root;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

function tree(files) {
  root = mkdtempSync(join(tmpdir(), "doc-links-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const CLEAN = {
  "README.md": [
    "# Tally",
    "",
    "![The dashboard](docs/dashboard.png)",
    "",
    "See [operations](docs/operations.md), [its proxy section](docs/operations.md#behind-a-reverse-proxy-trust_proxy)",
    "and [the second import heading](docs/operations.md#weekly-import-1), [below](#quick-start),",
    "[the code](apps/server/src/app.ts) and [autocannon](https://github.com/mcollina/autocannon).",
    "",
    "## Quick start",
    "",
  ].join("\n"),
  "docs/operations.md": [
    "# Operations",
    "",
    "## Behind a reverse proxy: `TRUST_PROXY`",
    "## Weekly import",
    "## Weekly import",
    "Back to the [README](../README.md#tally).",
    "",
  ].join("\n"),
  "docs/dashboard.png": "png",
  "apps/server/src/app.ts": "export {};\n",
};

describe("githubSlug", () => {
  it("follows GitHub's heading anchors: lower case, punctuation dropped, each space a hyphen", () => {
    expect(githubSlug("Quick start")).toBe("quick-start");
    expect(githubSlug("Behind a reverse proxy: `TRUST_PROXY`")).toBe("behind-a-reverse-proxy-trust_proxy");
    expect(githubSlug("Load (issue 15)")).toBe("load-issue-15");
    expect(githubSlug("What's new? A & B")).toBe("whats-new-a--b");
    expect(githubSlug("Contract, query parameters and the structure lint")).toBe("contract-query-parameters-and-the-structure-lint");
    expect(githubSlug("Étape **deux** — [lien](x.md)")).toBe("étape-deux--lien");
  });
});

describe("headingAnchors", () => {
  it("numbers repeated headings as GitHub does and skips fenced code", () => {
    const anchors = headingAnchors(["# A", "## Weekly import", "```sh", "# not a heading", "```", "### Weekly import", "#hashtag"].join("\n"));
    expect([...anchors]).toEqual(["a", "weekly-import", "weekly-import-1"]);
  });
});

describe("markdownLinks", () => {
  it("finds inline links and images with their line, and leaves out code, external links and mail", () => {
    const links = markdownLinks(
      [
        "[a](docs/a.md) and ![b](b.png \"title\")",
        "`[not](a-link.md)` and [web](https://example.org) [mail](mailto:x@example.org)",
        "```",
        "[inside](code.md)",
        "```",
        "[c](<docs/with space.md#part>)",
      ].join("\n"),
    );
    expect(links).toEqual([
      { target: "docs/a.md", line: 1 },
      { target: "b.png", line: 1 },
      { target: "docs/with space.md#part", line: 6 },
    ]);
  });
});

describe("checkDocLinks", () => {
  it("passes docs whose every link and anchor resolves", () => {
    expect(checkDocLinks(tree(CLEAN))).toEqual([]);
  });

  it("reports a missing file, a missing image, a missing anchor here and in another file", () => {
    const problems = checkDocLinks(
      tree({
        ...CLEAN,
        "docs/live.md": [
          "# Live",
          "",
          "See [security](security.md) and ![a screenshot](old-screenshot.png).",
          "[Proxy](operations.md#behind-a-proxy) and [here](#shutdown).",
          "",
        ].join("\n"),
      }),
    );
    expect(problems).toEqual([
      { file: "docs/live.md", line: 3, target: "security.md", message: "no file docs/security.md" },
      { file: "docs/live.md", line: 3, target: "old-screenshot.png", message: "no file docs/old-screenshot.png" },
      { file: "docs/live.md", line: 4, target: "operations.md#behind-a-proxy", message: 'docs/operations.md has no heading with anchor "behind-a-proxy"' },
      { file: "docs/live.md", line: 4, target: "#shutdown", message: 'docs/live.md has no heading with anchor "shutdown"' },
    ]);
  });

  it("refuses a link out of the repository, such as the spec under ../shared", () => {
    const problems = checkDocLinks(tree({ ...CLEAN, "docs/data-import.md": "# Import\n\nLayouts: [spec](../../shared/spec/report-formats.md).\n" }));
    expect(problems).toEqual([
      { file: "docs/data-import.md", line: 3, target: "../../shared/spec/report-formats.md", message: "leaves the repository" },
    ]);
  });
});

describe("the repository's README and docs", () => {
  it("every relative link and anchor resolves", () => {
    const files = docFiles(REPO);
    expect(files).toContain("README.md");
    expect(files.length).toBeGreaterThan(5);
    expect(checkDocLinks(REPO)).toEqual([]);
  });

  it("the README's documentation index links every docs file", () => {
    const linked = new Set(markdownLinks(readFileSync(join(REPO, "README.md"), "utf8")).map((l) => l.target.split("#")[0]));
    const docs = readdirSync(join(REPO, "docs")).filter((name) => name.endsWith(".md"));
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.filter((name) => !linked.has(`docs/${name}`))).toEqual([]);
  });
});
