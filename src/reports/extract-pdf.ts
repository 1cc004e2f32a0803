/**
 * PDFs: the page count first (pdfinfo; a PDF claiming more than MAX_REPORT_PDF_PAGES is refused
 * before anything renders it), then the text layer (`pdftotext -layout`, which keeps table
 * columns lined up). A text layer with fewer than SPARSE_TEXT_CHARS_PER_PAGE visible characters
 * per page is a scan: its first MAX_REPORT_OCR_PAGES pages are rendered one at a time with
 * `pdftoppm` (long edge bounded, whatever the page size claims) and read by tesseract, and, when
 * `vision` names a chat model, by the model too (ocr-vision.ts), whose text is kept when every
 * page worked.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GatewayConfig } from '../chat/gateway/index.js';
import {
  MAX_REPORT_OCR_PAGES,
  MAX_REPORT_PDF_PAGES,
  REPORT_OCR_DPI,
  SPARSE_TEXT_CHARS_PER_PAGE,
} from '../limits.js';
import { type Extracted, ReportRejected, visibleChars, witnessNotes } from './extracted.js';
import { tesseract } from './ocr-tesseract.js';
import { readWithVision } from './ocr-vision.js';
import { ProgramError, runProgram } from './run-program.js';

/** Longest page edge rendered for OCR, px: an A4 page at REPORT_OCR_DPI. */
const OCR_LONG_EDGE_PX = Math.round((297 / 25.4) * REPORT_OCR_DPI);

/**
 * The page count pdfinfo reports.
 * @throws ReportRejected when the file is not a PDF poppler can open.
 */
export async function pdfPageCount(file: string, signal?: AbortSignal): Promise<number> {
  let info: string;
  try {
    info = (
      await runProgram('pdfinfo', [file], { timeoutMs: 30_000, maxOutputBytes: 1024 * 1024, signal })
    ).toString('utf8');
  } catch (err) {
    if (err instanceof ProgramError) throw new ReportRejected(`the PDF cannot be opened (${err.reason})`);
    throw err;
  }
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? Number.NaN);
  if (!Number.isFinite(pages)) throw new ReportRejected('the PDF cannot be opened: it reports no page count');
  return pages;
}

/**
 * Renders one page to a greyscale PGM in `dir` with its long edge at `longEdgePx`; resolves its
 * path. PGM, not PNG: compressing a noisy scan as PNG costs pdftoppm fifty times the rendering.
 */
export async function renderPdfPage(
  file: string,
  page: number,
  dir: string,
  longEdgePx: number,
  signal?: AbortSignal,
) {
  const base = path.join(dir, `page-${page}`);
  await runProgram(
    'pdftoppm',
    [
      '-f',
      String(page),
      '-l',
      String(page),
      '-gray',
      '-singlefile',
      '-scale-to',
      String(longEdgePx),
      file,
      base,
    ],
    { signal },
  );
  return `${base}.pgm`;
}

/**
 * Reads a PDF. `opts.psm` is the tesseract mode for a scan; `opts.forceOcr` reads the pages by
 * OCR even when a text layer exists (a re-run asked for it).
 * @throws ReportRejected for an unreadable PDF, too many pages, no text at all; ProgramError
 *   passes through as a rejection too.
 */
export async function extractPdf(
  file: string,
  opts: { psm: number; forceOcr?: boolean; vision?: GatewayConfig; signal?: AbortSignal },
): Promise<Extracted> {
  const pages = await pdfPageCount(file, opts.signal);
  if (pages < 1) throw new ReportRejected('the PDF has no pages');
  if (pages > MAX_REPORT_PDF_PAGES) {
    throw new ReportRejected(`the PDF has ${pages} pages; at most ${MAX_REPORT_PDF_PAGES} are read`);
  }
  let layer = '';
  try {
    layer = (
      await runProgram('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { signal: opts.signal })
    ).toString('utf8');
  } catch (err) {
    if (!(err instanceof ProgramError)) throw err;
    // an unreadable text layer: the pages may still be read by OCR
  }
  if (!opts.forceOcr && visibleChars(layer) >= SPARSE_TEXT_CHARS_PER_PAGE * pages) {
    return { text: layer.replace(/\f$/, '').trimEnd(), sourceFormat: 'pdf', ocr: false, pages, notes: [] };
  }
  const read = Math.min(pages, MAX_REPORT_OCR_PAGES);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-ocr-'));
  try {
    const texts: string[] = [];
    for (let p = 1; p <= read; p++) {
      const page = await renderPdfPage(file, p, dir, OCR_LONG_EDGE_PX, opts.signal);
      texts.push(await tesseract(page, opts.psm, opts.signal));
      fs.rmSync(page, { force: true });
    }
    const tesseractText = texts.join('\n\f');
    const notes =
      pages > read
        ? [`pages ${read + 1} to ${pages} were not read (a scan is read up to ${MAX_REPORT_OCR_PAGES} pages)`]
        : [];
    if (opts.vision) {
      const v = await readWithVision(opts.vision, file, read, dir, tesseractText, opts.signal);
      if (v.ok)
        return {
          text: v.text,
          sourceFormat: 'pdf-vision',
          ocr: true,
          pages: read,
          notes: [...notes, ...witnessNotes(v.unwitnessed)],
          psm: opts.psm,
        };
      notes.push(`${v.reason}; read by tesseract instead`);
    }
    if (visibleChars(tesseractText) === 0)
      throw new ReportRejected('no text was found on the pages of this scanned PDF');
    return { text: tesseractText, sourceFormat: 'pdf-ocr', ocr: true, pages: read, notes, psm: opts.psm };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
