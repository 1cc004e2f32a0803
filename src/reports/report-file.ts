/**
 * An uploaded report on disk: `reports/<name>.md`, a front matter header that is the report's
 * whole state (no database), then the markdown the agent reads. Written atomically (a temporary
 * file renamed over the old one), so a crash mid-write leaves the previous state.
 *
 * Header fields: `klebb_ingest: v2` (marks an upload; hand-written reports have none),
 * `source_file`, `source_format`, `ingested_at`, `archive_path`, `status`, `verify`
 * (`none` | `required` | `done`), `summarised` (`yes` | `no`), `title`, `document_date`,
 * `reason` (why raw or rejected), `notes`, `ocr_attempts`, `ocr_psm`, `bullets` (a JSON array).
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPORT_STATUSES, type ReportStatus } from '../common/report-types.js';
import { parseFrontMatter } from './report-catalogue.js';

/** The header of an uploaded report, typed. */
export interface ReportHeader {
  source_file: string;
  source_format?: string;
  ingested_at: string;
  /** Path of the original, relative to the reports folder (`_archive/<name>.<ext>`). */
  archive_path: string;
  status: ReportStatus;
  verify: 'none' | 'required' | 'done';
  summarised: 'yes' | 'no';
  title?: string;
  document_date?: string;
  reason?: string;
  notes?: string;
  ocr_attempts?: number;
  ocr_psm?: number;
  bullets?: string[];
}

const ORDER: (keyof ReportHeader)[] = [
  'source_file',
  'source_format',
  'ingested_at',
  'archive_path',
  'status',
  'verify',
  'summarised',
  'title',
  'document_date',
  'reason',
  'notes',
  'ocr_attempts',
  'ocr_psm',
  'bullets',
];

/** A value on one header line: no line breaks, no surrounding quotes to be stripped on reading. */
function oneLine(v: string): string {
  return v
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .replace(/^["']+|["']+$/g, '')
    .trim();
}

/** The file text for a header and a markdown body. */
export function renderReport(h: ReportHeader, body: string): string {
  const lines = ['---', 'klebb_ingest: v2'];
  for (const key of ORDER) {
    const v = h[key];
    if (v === undefined || v === '') continue;
    lines.push(`${key}: ${key === 'bullets' ? JSON.stringify(v) : oneLine(String(v))}`);
  }
  lines.push('---', '');
  return `${lines.join('\n')}${body.endsWith('\n') ? body : `${body}\n`}`;
}

/** Reads an uploaded report's header and body; null when the text is not an upload (hand-written). */
export function parseReport(text: string): { header: ReportHeader; body: string } | null {
  const { fields, body } = parseFrontMatter(text);
  if (fields.klebb_ingest !== 'v2') return null;
  const status = (REPORT_STATUSES as readonly string[]).includes(fields.status)
    ? (fields.status as ReportStatus)
    : 'raw';
  let bullets: string[] | undefined;
  try {
    const parsed = fields.bullets ? JSON.parse(fields.bullets) : undefined;
    if (Array.isArray(parsed)) bullets = parsed.filter((b) => typeof b === 'string');
  } catch {}
  const int = (v: string | undefined) => (v && /^\d+$/.test(v) ? Number(v) : undefined);
  return {
    header: {
      source_file: fields.source_file ?? '',
      source_format: fields.source_format || undefined,
      ingested_at: fields.ingested_at ?? '',
      archive_path: fields.archive_path ?? '',
      status,
      verify: fields.verify === 'required' || fields.verify === 'done' ? fields.verify : 'none',
      summarised: fields.summarised === 'yes' ? 'yes' : 'no',
      title: fields.title || undefined,
      document_date: fields.document_date || undefined,
      reason: fields.reason || undefined,
      notes: fields.notes || undefined,
      ocr_attempts: int(fields.ocr_attempts),
      ocr_psm: int(fields.ocr_psm),
      bullets,
    },
    body,
  };
}

/** Writes `file` atomically: a sibling temporary file, flushed, renamed over it. */
export function writeFileAtomic(file: string, text: string): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    fs.writeFileSync(tmp, text, { flag: 'wx' });
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}
