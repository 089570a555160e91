// Checks that every relative link in README.md and docs/*.md names a file that exists, inside
// the repository, and that every #anchor names a heading of its page (GitHub's heading slugs).
// Run by tools/doc-links.test.mjs; links to other sites are not fetched (the tests run offline).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix, relative, resolve, sep } from "node:path";

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
// [text](target "title") and ![alt](target): the text may hold one level of [brackets].
const LINK = /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** The anchor GitHub gives a heading: its text lower-cased, punctuation dropped, spaces → "-". */
export function githubSlug(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link or image shows its text
    .replace(/`/g, "")
    .replace(/<[^>]+>/g, "");
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Each line of a Markdown text outside fenced code blocks, with its 1-based number. */
function proseLines(markdown) {
  const lines = [];
  let fence = null;
  markdown.split(/\r?\n/).forEach((line, i) => {
    const opening = FENCE.exec(line);
    if (fence) {
      if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length) fence = null;
    } else if (opening) {
      fence = opening[1];
    } else {
      lines.push({ line, number: i + 1 });
    }
  });
  return lines;
}

/** The anchors of a page's headings; a repeated heading gets -1, -2… as on GitHub. */
export function headingAnchors(markdown) {
  const anchors = new Set();
  const seen = new Map();
  for (const { line } of proseLines(markdown)) {
    const match = HEADING.exec(line);
    if (!match) continue;
    const slug = githubSlug(match[2]);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Links and images to this repository's files (not to other sites or mail), code left out. */
export function markdownLinks(markdown) {
  const links = [];
  for (const { line, number } of proseLines(markdown)) {
    const prose = line.replace(/(`+)[^`]*?\1/g, "");
    for (const match of prose.matchAll(LINK)) {
      const target = match[1].startsWith("<") ? match[1].slice(1, -1) : match[1];
      if (!SCHEME.test(target)) links.push({ target, line: number });
    }
  }
  return links;
}

/** README.md and every Markdown file under docs/, relative to `root` with "/" separators. */
export function docFiles(root) {
  const files = existsSync(join(root, "README.md")) ? ["README.md"] : [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) files.push(path);
    }
  };
  if (existsSync(join(root, "docs"))) walk("docs");
  return files.sort();
}

/** Every link of the docs that does not resolve: { file, line, target, message }. */
export function checkDocLinks(root, files = docFiles(root)) {
  const anchorsOf = new Map();
  const anchors = (path) => {
    if (!anchorsOf.has(path)) anchorsOf.set(path, headingAnchors(readFileSync(join(root, path), "utf8")));
    return anchorsOf.get(path);
  };
  const problems = [];
  for (const file of files) {
    for (const { target, line } of markdownLinks(readFileSync(join(root, file), "utf8"))) {
      const problem = (message) => problems.push({ file, line, target, message });
      const hash = target.indexOf("#");
      const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
      const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
      const absolute = pathPart === "" ? join(root, file) : resolve(root, dirname(file), pathPart);
      const path = relative(root, absolute).split(sep).join("/");
      if (path.startsWith("../") || path === "..") {
        problem("leaves the repository");
        continue;
      }
      if (!existsSync(absolute)) {
        problem(`no file ${path}`);
        continue;
      }
      if (anchor && path.endsWith(".md") && !anchors(path).has(anchor)) {
        problem(`${path} has no heading with anchor "${anchor}"`);
      }
    }
  }
  return problems;
}
