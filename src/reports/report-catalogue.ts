/**
 * Markdown reports in `HEALTH_HOME/reports/*.md`: the catalogue the system
 * prompt lists and the reader behind `read_report`. The upload pipeline is a later issue; here a
 * report is any markdown file, with an optional front matter block whose `status`, `verify`,
 * `title`, `document_date`, `ingested_at` and `source_format` are read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { utf8Prefix } from '../common/utf8-prefix.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { MAX_REPORT_READ_BYTES } from '../limits.js';

/** One report as the catalogue lists it. */
export interface ReportInfo {
  name: string;
  title: string;
  documentDate: string | null;
  ingestedAt: string | null;
  sourceFormat: string | null;
  /** Unverified OCR text is withheld from the agent until a person confirms it. */
  withheld: boolean;
  /** An uploaded report's state (`processing`, `needs checking`, `ready`, `raw`, `rejected`); null for a hand-written one. */
  status: string | null;
}

/** Splits `---\nkey: value\n---\nbody` front matter (flat `key: value` lines only). */
export function parseFrontMatter(input: string): { fields: Record<string, string>; body: string } {
  // a UTF-8 byte order mark must not hide the front matter (and with it a "needs checking" status)
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!m) return { fields: {}, body: text };
  const fields: Record<string, string> = {};
  for (const line of m[1].split(/\r?\n/)) {
    const kv = /^([A-Za-z0-9_]+):\s*(.*)$/.exec(line);
    if (kv) fields[kv[1]] = kv[2].replace(/^["']|["']$/g, '').trim();
  }
  return { fields, body: text.slice(m[0].length) };
}

function infoOf(name: string, text: string): ReportInfo {
  const { fields, body } = parseFrontMatter(text);
  const heading = /^#\s+(.+)$/m.exec(body)?.[1];
  const needsCheck =
    fields.status === 'needs checking' || (fields.verify === 'required' && fields.status !== 'ready');
  return {
    name,
    title: fields.title || heading || name,
    documentDate: fields.document_date || null,
    ingestedAt: fields.ingested_at || null,
    sourceFormat: fields.source_format || null,
    withheld: needsCheck,
    status: fields.status || null,
  };
}

/** Every report, newest document date first (undated last). */
export function listReports(reportsDir: string): ReportInfo[] {
  let names: string[];
  try {
    names = fs.readdirSync(reportsDir).filter((n) => n.endsWith('.md') && !n.startsWith('.'));
  } catch {
    return [];
  }
  return names
    .map((n) => infoOf(n.slice(0, -3), fs.readFileSync(path.join(reportsDir, n), 'utf8')))
    .sort(
      (a, b) => (b.documentDate ?? '').localeCompare(a.documentDate ?? '') || a.name.localeCompare(b.name),
    );
}

/**
 * `read_report`: `{name, path, content, ingestedAt, sourceFormat, truncated}`. The name is
 * stripped to `[A-Za-z0-9._-]`, must not start with a dot, and must resolve inside the folder.
 * @throws 400 bad name, 404 unknown, 403 while OCR text awaits verification.
 */
export function readReport(reportsDir: string, requested: string) {
  const name = String(requested).replace(/\.md$/, '');
  if (!/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(name)) throw badRequest(`"${requested}" is not a report name`);
  const file = path.resolve(reportsDir, `${name}.md`);
  if (path.dirname(file) !== path.resolve(reportsDir))
    throw badRequest('report name escapes the reports folder');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw notFound(`no report named "${name}"`);
  }
  const info = infoOf(name, text);
  if (info.withheld) throw forbidden(`report "${name}" is withheld until its OCR text is checked in Reports`);
  if (info.status === 'processing')
    throw conflict(`report "${name}" is still being read: try again in a minute`, 'REPORT_BUSY');
  const truncated = Buffer.byteLength(text) > MAX_REPORT_READ_BYTES;
  return {
    name,
    path: `reports/${name}.md`,
    // cut between characters: a byte cut could leave half an ü or an emoji (U+FFFD)
    content: truncated ? utf8Prefix(text, MAX_REPORT_READ_BYTES) : text,
    ingestedAt: info.ingestedAt,
    sourceFormat: info.sourceFormat,
    truncated,
  };
}
