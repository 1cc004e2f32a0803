/**
 * What kind of file an Apple Health upload is when it is no XML at all (a PDF, a photo picked
 * by mistake), told by its first bytes, so the refusal names the kind instead of whatever the
 * lenient XML reader took for an element among its bytes.
 */
import fs from 'node:fs';
import { sniffKind } from '../../reports/file-sniff.js';

/** UTF-16 text (an export some tools re-save so) has NUL bytes but is still text. */
function looksUtf16(head: Buffer): boolean {
  if (head.length < 2) return false;
  const [a, b] = head;
  return (a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff) || (a === 0) !== (b === 0);
}

/**
 * The kind in words ("a PDF document", "a PNG image", "a JPEG image", "not a text file") of the
 * file at `file` when its first KiB says it is not text, else null (text: XML or not, it is
 * described by what the reader found in it).
 */
export function nonTextKind(file: string): string | null {
  const head = Buffer.alloc(1024);
  const fd = fs.openSync(file, 'r');
  let n: number;
  try {
    n = fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  const bytes = head.subarray(0, n);
  switch (sniffKind(bytes)) {
    case 'pdf':
      return 'a PDF document';
    case 'png':
      return 'a PNG image';
    case 'jpeg':
      return 'a JPEG image';
    case null:
      return looksUtf16(bytes) ? null : 'not a text file';
    default:
      return null;
  }
}
