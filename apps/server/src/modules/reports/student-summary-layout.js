// The one-student summary of a student's own export (issue 32), drawn with the attendance
// report's pieces (same fonts, header, tables and footers). Plain JavaScript for the same
// reason: it runs in the PDF worker. The model is typed in pdf-report.ts (StudentSummaryModel).
import { COLORS, CONTENT_WIDTH, ensureSpace, footers, header, line, openDocument, PAGE, sectionTitle, table, wrapLines } from "./pdf-report-layout.js";

const LABEL_WIDTH = 140;

/** Label and value pairs, the value wrapped (a long e-mail address or team description). */
function facts(doc, rows) {
  for (const [label, value] of rows) {
    doc.font("regular").fontSize(10);
    const lines = wrapLines(doc, value ?? "–", CONTENT_WIDTH - LABEL_WIDTH, 4);
    ensureSpace(doc, lines.length * 13 + 4);
    // pdfkit moves doc.y under each text drawn: the row's top is kept.
    const y = doc.y;
    line(doc, label, PAGE.margin, y, { font: "bold", size: 10, color: COLORS.muted, width: LABEL_WIDTH - 8 });
    lines.forEach((text, i) => line(doc, text, PAGE.margin + LABEL_WIDTH, y + i * 13, { size: 10, width: CONTENT_WIDTH - LABEL_WIDTH }));
    doc.y = y + lines.length * 13 + 4;
  }
}

/** Free text (a reflection, a note) wrapped over as many lines as it needs, page breaks included. */
function paragraph(doc, label, text) {
  doc.font("regular").fontSize(9.5);
  const lines = wrapLines(doc, text, CONTENT_WIDTH - 12, 200);
  ensureSpace(doc, 28);
  let y = doc.y;
  line(doc, label, PAGE.margin, y, { font: "bold", size: 9, color: COLORS.brand });
  doc.y = y + 13;
  for (const wrapped of lines) {
    ensureSpace(doc, 13);
    y = doc.y;
    line(doc, wrapped, PAGE.margin + 12, y, { size: 9.5 });
    doc.y = y + 12.5;
  }
  doc.y += 4;
}

const none = (doc, text) => {
  const y = doc.y;
  line(doc, text, PAGE.margin, y, { size: 10, color: COLORS.muted });
  doc.y = y + 18;
};

function weeks(doc, model) {
  sectionTitle(doc, "Weekly data, flags, reflections and notes");
  if (model.weeks.length === 0) return none(doc, "No weekly data.");
  for (const w of model.weeks) {
    ensureSpace(doc, 60);
    const y = doc.y;
    line(doc, w.title, PAGE.margin, y, { font: "bold", size: 11 });
    doc.y = y + 17;
    facts(doc, [
      ["Hours reported", w.hours],
      ["Flags", w.flags.length === 0 ? "None" : w.flags.join("; ")],
    ]);
    if (w.reflection) paragraph(doc, "Reflection", w.reflection);
    if (w.notes) paragraph(doc, "Advisor notes", w.notes);
    doc.y += 6;
  }
}

/** A titled table of rows, or a line saying there are none. */
function listSection(doc, title, rows, emptyText, columns, options) {
  sectionTitle(doc, title);
  if (rows.length === 0) none(doc, emptyText);
  else table(doc, columns, rows, options);
}

/** The summary as PDF bytes. */
export function renderStudentSummary(model) {
  const { doc, done } = openDocument(model);
  header(doc, model);
  sectionTitle(doc, "Profile");
  facts(doc, model.profile);
  listSection(doc, "Cohorts and teams", model.memberships, "In no cohort or team.", [
    { title: "Kind", width: 0.12, value: (m) => m.kind },
    { title: "Name", width: 0.38, value: (m) => m.name },
    { title: "From", width: 0.25, value: (m) => m.from },
    { title: "To", width: 0.25, value: (m) => m.to },
  ], { maxLines: 2 });
  listSection(doc, "Attendance", model.attendance, "No attendance recorded.", [
    { title: "Date", width: 0.2, value: (a) => a.date },
    { title: "Week", width: 0.15, value: (a) => a.week },
    { title: "Cohort", width: 0.3, value: (a) => a.cohort },
    { title: "Meeting", width: 0.17, value: (a) => a.meeting },
    { title: "Status", width: 0.18, value: (a) => a.status },
  ]);
  weeks(doc, model);
  listSection(doc, "Who viewed or exported these records", model.access, "Nobody yet.", [
    { title: "Time (UTC)", width: 0.3, value: (a) => a.at },
    { title: "Who", width: 0.45, value: (a) => a.user },
    { title: "Action", width: 0.25, value: (a) => a.action },
  ]);
  footers(doc, model);
  doc.end();
  return done;
}
