/**
 * The CSV files of a webhook body. The app posts its CSV export as `multipart/form-data`, one
 * file part per data type; a script may post a saved file the same way (`curl -F
 * file=@export.csv`), and that file may be UTF-16 (Excel's "Unicode Text" save). The parts are
 * found in the body's bytes, so each part's text is decoded as its own bytes say (utf8Body);
 * a body that is not multipart is one file.
 */
import { utf8Body } from '../webhook/utf8-body.js';

/** A CSV file of a body: its text, and its file name when the multipart part gives one. */
export interface CsvFile {
  text: string;
  name?: string;
}

/** The file name a multipart part's headers give (`filename="x.csv"`), undefined when none. */
function partFileName(headers: string): string | undefined {
  const m = /\bfilename="([^"]*)"|\bfilename=([^;\r\n]*)/i.exec(headers);
  const name = (m?.[1] ?? m?.[2])?.trim();
  return name ? name : undefined;
}

/** The Content-Type a multipart part's headers give, undefined when none. */
function partContentType(headers: string): string | undefined {
  return /^content-type:\s*([^\r\n]*)/im.exec(headers)?.[1]?.trim() || undefined;
}

/**
 * `bytes` as text: UTF-8, UTF-16 by its byte order mark, or in its single-byte code page when it
 * is not UTF-8 (`contentType` may name it; utf8Body); a byte order mark is not part of it.
 */
function textOf(bytes: Buffer, contentType?: string): string {
  return utf8Body(bytes, contentType)
    .toString('utf8')
    .replace(/^\ufeff/, '');
}

/** Where the part's headers end (after the empty line) in `part`, or -1 when they never end. */
function contentStart(part: Buffer): number {
  const crlf = part.indexOf('\r\n\r\n');
  const lf = part.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf <= lf)) return crlf + 4;
  return lf >= 0 ? lf + 2 : -1;
}

/**
 * The CSV files of `body` (module comment): the file parts of a multipart body (`contentType`
 * names its boundary), else the body itself.
 */
export function csvFiles(body: Buffer, contentType: string | undefined): CsvFile[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  if (!boundary) return [{ text: textOf(body) }];
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const files: CsvFile[] = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const from = at + delimiter.length;
    const next = body.indexOf(delimiter, from);
    const part = body.subarray(from, next < 0 ? body.length : next);
    if (part.subarray(0, 2).toString('latin1') === '--') break;
    at = next;
    // the part's headers end at its first empty line; its content ends before the next delimiter
    const start = contentStart(part);
    if (start < 0) continue;
    let content = part.subarray(start);
    // the line break before the next delimiter belongs to it
    if (content.at(-1) === 0x0a) content = content.subarray(0, content.at(-2) === 0x0d ? -2 : -1);
    const headers = part.subarray(0, start).toString('utf8');
    files.push({ text: textOf(content, partContentType(headers)), name: partFileName(headers) });
  }
  return files;
}
