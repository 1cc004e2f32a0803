/**
 * Does the file's content match its extension? Checked on the first bytes at upload, so a
 * renamed executable or an HTML page called `.pdf` is a 400 before anything reads it. A DOCX is
 * a zip archive; whether the zip holds a Word document is the reader's question.
 */
import type { ReportExtension } from './upload-name.js';

const startsWith = (head: Buffer, bytes: number[]) => bytes.every((b, i) => head[i] === b);

/** What the first bytes say the file is, or null when they match nothing we read. */
export function sniffKind(head: Buffer): 'pdf' | 'png' | 'jpeg' | 'zip' | 'text' | null {
  // a PDF may have up to 1024 bytes of junk before its header (PDF 1.7, §7.5.2)
  if (head.subarray(0, 1024).includes('%PDF-')) return 'pdf';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  if (!head.includes(0) && isUtf8Prefix(head)) return 'text';
  return null;
}

/** Valid UTF-8, allowing a character cut at the end of the sample. */
function isUtf8Prefix(head: Buffer): boolean {
  for (let cut = 0; cut < 4 && cut < head.length; cut++) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, head.length - cut));
      return true;
    } catch {}
  }
  return head.length === 0;
}

const EXPECTED: Record<ReportExtension, ReturnType<typeof sniffKind>> = {
  pdf: 'pdf',
  png: 'png',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  docx: 'zip',
  txt: 'text',
  md: 'text',
  csv: 'text',
};

/** Null when `head` fits `ext`, else a sentence saying what the file seems to be. */
export function contentMismatch(ext: ReportExtension, head: Buffer): string | null {
  const kind = sniffKind(head);
  if (kind === EXPECTED[ext]) return null;
  const seen =
    kind === null
      ? 'not a kind of file Klebb reads'
      : kind === 'text'
        ? 'plain text'
        : `a ${kind.toUpperCase()} file`;
  return `the file is called .${ext} but its content is ${seen}`;
}
