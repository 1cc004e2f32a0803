/**
 * The markdown the agent and the report page read, for each outcome: a summary (title, date,
 * bullets, clean body), the document's own text when it was not summarised (labelled so, with
 * the reason), a note while it is being read, the reason it was refused.
 */

/** What the understanding call produced, after the person's identifiers were removed. */
export interface Summary {
  title: string;
  documentDate: string | null;
  bullets: string[];
  body: string;
}

/** A fence longer than any run of backticks in `text`, so the text cannot close it. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** Notes (pages not read, text cut) as a quoted line, or nothing. */
function notesLine(notes: string[]): string[] {
  return notes.length ? [`> Note: ${notes.join('; ')}.`, ''] : [];
}

/** A summarised report. */
export function summaryBody(s: Summary, notes: string[] = []): string {
  return [
    `# ${s.title}`,
    '',
    ...(s.documentDate ? [`Document date: ${s.documentDate}`, ''] : []),
    ...s.bullets.map((b) => `- ${b}`),
    ...(s.bullets.length ? [''] : []),
    ...notesLine(notes),
    s.body.trim(),
    '',
  ].join('\n');
}

/** A report kept as its extracted text ("not summarised"), with the reason. */
export function rawBody(title: string, text: string, reason: string, notes: string[] = []): string {
  const fence = fenceFor(text);
  return [
    `# ${title}`,
    '',
    `> Not summarised: ${reason}. Below is the text as it was read from the document.`,
    '',
    ...notesLine(notes),
    `${fence}text`,
    text,
    fence,
    '',
  ].join('\n');
}

/** A report still being read. */
export function processingBody(title: string): string {
  return `# ${title}\n\nThis report is still being read.\n`;
}

/** A refused file. */
export function rejectedBody(title: string, reason: string): string {
  return `# ${title}\n\n> Rejected: ${reason}.\n`;
}
