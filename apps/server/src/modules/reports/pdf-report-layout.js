// The attendance report's page layout with pdfkit. Plain JavaScript because it runs in a
// worker thread (pdf-report-worker.js), which loads without the TypeScript toolchain; the
// model it draws is typed in pdf-report.ts (ReportModel).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as fontkit from "fontkit";
import PDFDocument from "pdfkit";

const require = createRequire(import.meta.url);
// Noto Sans covers Latin, Greek, Cyrillic and Vietnamese: "José", "Zoë", "Đặng", "Ólafur".
const FONT_FILES = {
  regular: require.resolve("@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf"),
  bold: require.resolve("@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf"),
};
// Parsed once per worker and handed to every document: fontkit keeps its shaping caches on
// the font object, which makes the second report several times faster than the first.
/** @type {{ regular: object, bold: object } | undefined} */
let fonts;

export const PAGE = { width: 595.28, height: 841.89, margin: 48, footer: 30 };
export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
export const COLORS = {
  ink: "#1d2733",
  muted: "#5b6675",
  brand: "#1f3a5f",
  rule: "#d5dbe3",
  zebra: "#f3f6fa",
  card: "#f5f7fa",
  mentor: "#1f5fad",
  advisor: "#d9822b",
  grid: "#e3e7ed",
};

/** Shortens text with an ellipsis until it fits the width at the current font and size. */
function fit(doc, text, width) {
  const value = (text ?? "").normalize("NFC");
  if (doc.widthOfString(value, { features: FEATURES }) <= width) return value;
  let lo = 0;
  let hi = value.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (doc.widthOfString(`${value.slice(0, mid)}…`, { features: FEATURES }) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${value.slice(0, lo).trimEnd()}…`;
}

// OpenType features off, for two reasons. Noto Sans's ccmp draws "ị" as "i" plus a combining
// dot, and pdfkit then maps the glyph "i" back to whichever text it met first, so "Thị" would
// copy (and extract) as "Thi"; without it the font's precomposed glyphs are used and the text
// layer keeps every letter (text is NFC-normalised first, so they exist). And shaping is most
// of the rendering time: without it a 100-student report takes a third as long.
const FEATURES = {
  ccmp: false, locl: false, rlig: false, mark: false, mkmk: false, calt: false,
  clig: false, liga: false, rclt: false, curs: false, kern: false, rvrn: false,
};

/** Greedy word wrap into at most `maxLines` lines; the last one ends in an ellipsis if text is left over. */
export function wrapLines(doc, text, width, maxLines) {
  const words = (text ?? "").normalize("NFC").split(/\s+/).filter(Boolean);
  const lines = [];
  let current = "";
  for (let i = 0; i < words.length; i++) {
    const candidate = current ? `${current} ${words[i]}` : words[i];
    if (!current || doc.widthOfString(candidate, { features: FEATURES }) <= width) {
      current = candidate;
      continue;
    }
    if (lines.length === maxLines - 1) {
      current = `${current} ${words.slice(i).join(" ")}`;
      break;
    }
    lines.push(current);
    current = words[i];
  }
  if (current || lines.length === 0) lines.push(current);
  return lines.map((l) => fit(doc, l, width));
}

const pct = (v) => (v === null || v === undefined ? "–" : `${v}%`);

/** Writes one line at (x, y) without pdfkit moving to a new page or wrapping. */
export function line(doc, text, x, y, { width, align = "left", font = "regular", size = 9, color = COLORS.ink } = {}) {
  doc.font(font).fontSize(size).fillColor(color);
  const w = width ?? CONTENT_WIDTH;
  doc.text(fit(doc, text, w), x, y, { width: w, align, lineBreak: false, features: FEATURES });
}

/** A section heading, moved to the next page unless `keep` points of what follows fit under it. */
export function sectionTitle(doc, text, keep = 60) {
  ensureSpace(doc, keep + 40);
  doc.y += 10;
  line(doc, text, PAGE.margin, doc.y, { font: "bold", size: 13, color: COLORS.brand });
  doc.y += 20;
  doc.moveTo(PAGE.margin, doc.y).lineTo(PAGE.margin + CONTENT_WIDTH, doc.y).lineWidth(0.75).strokeColor(COLORS.rule).stroke();
  doc.y += 8;
}

const bottomLimit = () => PAGE.height - PAGE.margin - PAGE.footer;

/** Starts a new page when fewer than `height` points are left above the footer. */
export function ensureSpace(doc, height) {
  if (doc.y + height > bottomLimit()) {
    doc.addPage();
    doc.y = PAGE.margin;
    return true;
  }
  return false;
}

export function header(doc, model) {
  const top = PAGE.margin;
  doc.rect(PAGE.margin, top, CONTENT_WIDTH, 4).fill(COLORS.brand);
  line(doc, model.kicker ?? "TALLY · MENTOR AND ADVISOR MEETING ATTENDANCE", PAGE.margin, top + 14, { size: 8, color: COLORS.muted, font: "bold" });
  line(doc, model.title, PAGE.margin, top + 28, { font: "bold", size: 22, color: COLORS.ink });
  let y = top + 62;
  for (const f of model.filters) {
    doc.font("bold").fontSize(10).fillColor(COLORS.muted);
    doc.text(`${f.label}:`, PAGE.margin, y, { lineBreak: false, features: FEATURES });
    line(doc, f.value, PAGE.margin + 60, y, { size: 10, width: CONTENT_WIDTH - 60 });
    y += 15;
  }
  y += 4;
  line(doc, `Generated on ${model.generatedAt} by ${model.generatedBy}`, PAGE.margin, y, { size: 9, color: COLORS.muted });
  doc.y = y + 22;
}

function totals(doc, model) {
  const cards = [
    ["Schools", model.totals.schools],
    ["Students", model.totals.students],
    ["Cohorts", model.totals.cohorts],
    ["Teams", model.totals.teams],
  ];
  const gap = 10;
  const w = (CONTENT_WIDTH - gap * 3) / 4;
  const h = 58;
  const y = doc.y;
  cards.forEach(([label, value], i) => {
    const x = PAGE.margin + i * (w + gap);
    doc.roundedRect(x, y, w, h, 4).fill(COLORS.card);
    doc.rect(x, y, 3, h).fill(COLORS.brand);
    line(doc, Number(value).toLocaleString("en-GB"), x + 12, y + 9, { font: "bold", size: 20, width: w - 18 });
    line(doc, label, x + 12, y + 38, { size: 9, color: COLORS.muted, width: w - 18 });
  });
  doc.y = y + h + 8;
}

function dashed(doc, on) {
  if (on) doc.dash(5, { space: 3 });
  else doc.undash();
}

function trendChart(doc, model) {
  const points = model.trend;
  const height = 190;
  ensureSpace(doc, height + 30);
  const top = doc.y + 4;
  const left = PAGE.margin + 34;
  const width = CONTENT_WIDTH - 44;
  const plotH = height - 40;
  const plotTop = top + 8;
  const yOf = (v) => plotTop + plotH - (v / 100) * plotH;
  // Grid and y axis: 0–100 % always (spec §9).
  for (const v of [0, 25, 50, 75, 100]) {
    const y = yOf(v);
    doc.moveTo(left, y).lineTo(left + width, y).lineWidth(0.5).strokeColor(v === 0 ? COLORS.muted : COLORS.grid).stroke();
    line(doc, `${v}%`, PAGE.margin, y - 5, { size: 8, color: COLORS.muted, width: 28, align: "right" });
  }
  if (points.length === 0) {
    line(doc, "No attendance recorded for these filters.", left, plotTop + plotH / 2 - 6, {
      width, align: "center", color: COLORS.muted, size: 10,
    });
  } else {
    const step = points.length > 1 ? width / (points.length - 1) : 0;
    const xOf = (i) => (points.length > 1 ? left + i * step : left + width / 2);
    const labelEvery = Math.max(1, Math.ceil(points.length / 16));
    points.forEach((p, i) => {
      if (i % labelEvery === 0 || i === points.length - 1) {
        line(doc, `W${p.week}`, xOf(i) - 15, plotTop + plotH + 5, { size: 8, color: COLORS.muted, width: 30, align: "center" });
      }
    });
    for (const [key, color, isDashed] of [["mentor", COLORS.mentor, false], ["advisor", COLORS.advisor, true]]) {
      // A week without records of this meeting type breaks the line rather than dropping to 0.
      let drawing = false;
      doc.save();
      dashed(doc, isDashed);
      doc.lineWidth(1.8).strokeColor(color);
      points.forEach((p, i) => {
        const v = p[key];
        if (v === null || v === undefined) {
          if (drawing) doc.stroke();
          drawing = false;
          return;
        }
        if (drawing) doc.lineTo(xOf(i), yOf(v));
        else doc.moveTo(xOf(i), yOf(v));
        drawing = true;
      });
      if (drawing) doc.stroke();
      doc.restore();
      for (const [i, p] of points.entries()) {
        const v = p[key];
        if (v !== null && v !== undefined) doc.circle(xOf(i), yOf(v), 2.2).fill(color);
      }
    }
  }
  // Legend
  const ly = top + height - 14;
  let lx = left;
  for (const [label, color, isDashed] of [["Mentor meetings", COLORS.mentor, false], ["Advisor meetings", COLORS.advisor, true]]) {
    doc.save();
    dashed(doc, isDashed);
    doc.moveTo(lx, ly + 5).lineTo(lx + 26, ly + 5).lineWidth(1.8).strokeColor(color).stroke();
    doc.restore();
    line(doc, label, lx + 32, ly, { size: 8.5, color: COLORS.ink, width: 100 });
    lx += 130;
  }
  doc.y = top + height + 6;
}

/**
 * A table whose header is drawn again at the top of every page it runs onto. Columns:
 * { title, width (share of the content width), align, value(row) }.
 */
export function table(doc, columns, rows, { rowHeight = 17, size = 8.5, groups = [], maxLines = 1 } = {}) {
  const lineHeight = size * 1.25;
  const widths = columns.map((c) => c.width * CONTENT_WIDTH);
  const starts = widths.map((_, i) => PAGE.margin + widths.slice(0, i).reduce((a, b) => a + b, 0));
  const drawHeader = () => {
    if (groups.length > 0) {
      // A row naming column groups ("Mentor meetings" over its three columns).
      const gy = doc.y;
      doc.rect(PAGE.margin, gy, CONTENT_WIDTH, rowHeight).fill(COLORS.card);
      for (const g of groups) {
        const x = starts[g.from];
        const w = widths.slice(g.from, g.from + g.span).reduce((a, b) => a + b, 0);
        line(doc, g.title, x + 5, gy + 4, { font: "bold", size, color: COLORS.brand, width: w - 10, align: "center" });
        doc.moveTo(x + 6, gy + rowHeight - 2).lineTo(x + w - 6, gy + rowHeight - 2).lineWidth(0.75).strokeColor(g.color ?? COLORS.brand).stroke();
      }
      doc.y = gy + rowHeight;
    }
    const y = doc.y;
    doc.rect(PAGE.margin, y, CONTENT_WIDTH, rowHeight + 2).fill(COLORS.brand);
    let x = PAGE.margin;
    columns.forEach((c, i) => {
      line(doc, c.title, x + 5, y + 4.5, { font: "bold", size, color: "#ffffff", width: widths[i] - 10, align: c.align ?? "left" });
      x += widths[i];
    });
    doc.y = y + rowHeight + 2;
  };
  ensureSpace(doc, (rowHeight + 2) * (groups.length > 0 ? 4 : 3));
  drawHeader();
  rows.forEach((row, r) => {
    // Long names wrap onto a second line (maxLines) rather than being cut short.
    doc.font("regular").fontSize(size);
    const cells = columns.map((c, i) => wrapLines(doc, String(c.value(row)), widths[i] - 10, maxLines));
    const height = rowHeight + (Math.max(...cells.map((l) => l.length)) - 1) * lineHeight;
    if (ensureSpace(doc, height)) drawHeader();
    const y = doc.y;
    if (r % 2 === 1) doc.rect(PAGE.margin, y, CONTENT_WIDTH, height).fill(COLORS.zebra);
    let x = PAGE.margin;
    columns.forEach((c, i) => {
      cells[i].forEach((text, k) => {
        line(doc, text, x + 5, y + 4 + k * lineHeight, { size, width: widths[i] - 10, align: c.align ?? "left" });
      });
      x += widths[i];
    });
    doc.y = y + height;
  });
  doc.moveTo(PAGE.margin, doc.y).lineTo(PAGE.margin + CONTENT_WIDTH, doc.y).lineWidth(0.5).strokeColor(COLORS.rule).stroke();
  doc.y += 6;
}

function weeklyTable(doc, model) {
  if (model.trendTable.length === 0) return;
  table(doc, [
    { title: "Week", width: 0.16, value: (r) => `Week ${r.week}` },
    { title: "Present", width: 0.14, align: "right", value: (r) => pct(r.mentorPresent) },
    { title: "Late", width: 0.14, align: "right", value: (r) => pct(r.mentorLate) },
    { title: "Attended", width: 0.14, align: "right", value: (r) => pct(r.mentor) },
    { title: "Present", width: 0.14, align: "right", value: (r) => pct(r.advisorPresent) },
    { title: "Late", width: 0.14, align: "right", value: (r) => pct(r.advisorLate) },
    { title: "Attended", width: 0.14, align: "right", value: (r) => pct(r.advisor) },
  ], model.trendTable, {
    groups: [
      { title: "Mentor meetings", from: 1, span: 3, color: COLORS.mentor },
      { title: "Advisor meetings", from: 4, span: 3, color: COLORS.advisor },
    ],
  });
  line(doc, "Attended = present + late, as a share of the week's recorded meetings of that type.", PAGE.margin, doc.y, {
    size: 8, color: COLORS.muted,
  });
  doc.y += 14;
}

function studentsTable(doc, model) {
  sectionTitle(doc, `Students (${model.totals.students.toLocaleString("en-GB")})`, 100);
  if (model.students.length === 0) {
    line(doc, model.totals.students === 0 ? "No students match these filters." : "The students table was left out of this report.", PAGE.margin, doc.y, {
      size: 10, color: COLORS.muted,
    });
    doc.y += 18;
    return;
  }
  table(doc, [
    { title: "Name", width: 0.22, value: (s) => s.name },
    { title: "School", width: 0.17, value: (s) => s.school ?? "No school" },
    { title: "Cohort", width: 0.17, value: (s) => s.cohort ?? "No cohort" },
    { title: "Team", width: 0.17, value: (s) => s.team ?? "No team" },
    { title: "Present", width: 0.09, align: "right", value: (s) => pct(s.present) },
    { title: "Late", width: 0.09, align: "right", value: (s) => pct(s.late) },
    { title: "Absent", width: 0.09, align: "right", value: (s) => pct(s.absent) },
  ], model.students, { maxLines: 2 });
  if (model.moreStudents > 0) {
    ensureSpace(doc, 16);
    const n = model.moreStudents.toLocaleString("en-GB");
    line(doc, `… and ${n} more student${model.moreStudents === 1 ? "" : "s"} (download the CSV for the full list).`, PAGE.margin, doc.y, {
      size: 9, color: COLORS.muted,
    });
    doc.y += 14;
  }
  line(doc, "Present, late and absent: shares of each student's recorded mentor and advisor meetings.", PAGE.margin, doc.y, {
    size: 8, color: COLORS.muted,
  });
  doc.y += 14;
}

/** The footer of every page: what the report is, when it was made, and "Page n of m". */
export function footers(doc, model) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing below the bottom margin would make pdfkit start a page: lift the margin first.
    const saved = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = PAGE.height - PAGE.margin - 10;
    doc.moveTo(PAGE.margin, y - 6).lineTo(PAGE.margin + CONTENT_WIDTH, y - 6).lineWidth(0.5).strokeColor(COLORS.rule).stroke();
    line(doc, `${model.title} · ${model.footerNote}`, PAGE.margin, y, { size: 7.5, color: COLORS.muted, width: CONTENT_WIDTH - 90 });
    line(doc, `Page ${i - range.start + 1} of ${range.count}`, PAGE.margin + CONTENT_WIDTH - 90, y, {
      size: 7.5, color: COLORS.muted, width: 90, align: "right",
    });
    doc.page.margins.bottom = saved;
  }
}

/** A new A4 document with the fonts registered, and its bytes once it ends (the student summary shares it). */
export function openDocument(model) {
  fonts ??= { regular: fontkit.create(readFileSync(FONT_FILES.regular)), bold: fontkit.create(readFileSync(FONT_FILES.bold)) };
  const doc = new PDFDocument({
    size: "A4",
    margin: PAGE.margin,
    bufferPages: true,
    compress: true,
    info: { Title: model.title, Author: "Tally", Subject: model.footerNote, CreationDate: new Date(model.generatedAtIso) },
  });
  doc.registerFont("regular", fonts.regular);
  doc.registerFont("bold", fonts.bold);
  const chunks = [];
  doc.on("data", (c) => chunks.push(c));
  const done = new Promise((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  return { doc, done };
}

/** The whole report as PDF bytes. */
export function renderReport(model) {
  const { doc, done } = openDocument(model);
  header(doc, model);
  totals(doc, model);
  sectionTitle(doc, "Weekly attendance trend", 220);
  line(doc, "Share of meetings attended (present + late) in each programme week.", PAGE.margin, doc.y, { size: 9, color: COLORS.muted });
  doc.y += 14;
  trendChart(doc, model);
  weeklyTable(doc, model);
  if (model.includeStudents) studentsTable(doc, model);
  footers(doc, model);
  doc.end();
  return done;
}
