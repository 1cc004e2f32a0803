/**
 * Word documents (.docx) with mammoth. A DOCX is a zip archive; before mammoth unpacks it, the
 * archive's directory is read with yauzl: a zip that is not a Word document (no
 * `word/document.xml`), holds too many entries, unpacks past MAX_DOCX_UNPACKED_BYTES, or packs an
 * entry more than 200 times smaller than it unpacks (a zip bomb) is refused unread.
 */
import yauzl from 'yauzl';
import { clipGraphemes } from '../common/graphemes.js';
import { lookupTable } from '../common/lookup-table.js';
import { lazyImport } from '../lazy-module.js';
import { MAX_DOCX_ENTRIES, MAX_DOCX_UNPACKED_BYTES } from '../limits.js';
import { type Extracted, ReportRejected, visibleChars } from './extracted.js';

/**
 * Checks the archive's directory.
 * @throws ReportRejected naming what is wrong.
 */
export async function checkDocxArchive(file: string): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false });
  } catch (err) {
    throw new ReportRejected(
      `the file is not a Word document: the archive cannot be read (${(err as Error).message})`,
    );
  }
  try {
    if (zip.entryCount > MAX_DOCX_ENTRIES)
      throw new ReportRejected(`the archive holds ${zip.entryCount} entries; a Word document has far fewer`);
    let unpacked = 0;
    let hasDocument = false;
    for (;;) {
      const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
        zip.once('entry', resolve);
        zip.once('end', () => resolve(null));
        zip.once('error', reject);
        zip.readEntry();
      }).catch((err: Error) => {
        throw new ReportRejected(`the file is not a Word document: ${err.message}`);
      });
      zip.removeAllListeners('entry').removeAllListeners('end').removeAllListeners('error');
      if (!entry) break;
      if (entry.fileName === 'word/document.xml') hasDocument = true;
      unpacked += entry.uncompressedSize;
      if (unpacked > MAX_DOCX_UNPACKED_BYTES)
        throw new ReportRejected('the document unpacks to more than is read');
      if (
        entry.compressedSize > 0 &&
        entry.uncompressedSize / entry.compressedSize > 200 &&
        entry.uncompressedSize > 1024 * 1024
      ) {
        throw new ReportRejected('the document holds a part that unpacks suspiciously large');
      }
    }
    if (!hasDocument)
      throw new ReportRejected(
        'the file is a zip archive, not a Word document (it has no word/document.xml)',
      );
  } finally {
    zip.close();
  }
}

const ENTITIES = lookupTable<string>({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' });

/**
 * mammoth's HTML as plain text: paragraphs and headings on their own lines, a table row on one
 * line with its cells separated by tabs (so a value stays on the line of its unit and range).
 */
export function docxHtmlToText(html: string): string {
  return html
    .replace(
      /<t([dh])([^>]*)>([\s\S]*?)<\/t\1>/g,
      (_m, kind: string, _attrs: string, inner: string) =>
        `<t${kind}>${inner.replace(/<\/p>\s*<p[^>]*>/g, ' ').replace(/<\/?p[^>]*>/g, '')}</t${kind}>`,
    )
    .replace(/<\/t[dh]>/g, '\t')
    .replace(/<\/tr>|<br\s*\/?>|<\/(p|h[1-6]|li)>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (m, e: string) => ENTITIES[e] ?? m)
    .replace(/\t+\n/g, '\n');
}

/** mammoth is loaded with the first Word document, not at start-up. */
const mammothLib = lazyImport(async () => (await import('mammoth')).default);

/**
 * Reads a DOCX as plain text (paragraphs on their own lines, a table row per line).
 * @throws ReportRejected.
 */
export async function extractDocx(file: string): Promise<Extracted> {
  await checkDocxArchive(file);
  let text: string;
  try {
    const mammoth = await mammothLib();
    text = docxHtmlToText((await mammoth.convertToHtml({ path: file })).value);
  } catch (err) {
    throw new ReportRejected(
      `the Word document cannot be read (${clipGraphemes((err as Error).message, 200)})`,
    );
  }
  text = text.replace(/\n{3,}/g, '\n\n').trim();
  if (visibleChars(text) === 0) throw new ReportRejected('the Word document holds no text');
  return { text, sourceFormat: 'docx', ocr: false, pages: 1, notes: [] };
}
